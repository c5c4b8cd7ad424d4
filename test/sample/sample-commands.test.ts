import { afterAll, expect, test } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { killRunningApps } from '../factories/child-app';
import { runNode } from '../factories/cli';
import { SAMPLE_MAIN, startSample, waitUntilReady, type RunningSample } from '../factories/sample';

let dataDir: string;
let sample: RunningSample;

afterAll(async () => {
  await sample?.stop();
  killRunningApps();
  await rm(path.dirname(dataDir), { recursive: true, force: true });
});

// The sample serves on the embedded database in dataDir, holding its lock, while a second process
// runs commands through the same entry point, with the same settings, as a developer in a second
// shell would: a command that opened the database would meet E_DATA_DIR_IN_USE.
async function command(args: string[]) {
  return runNode(SAMPLE_MAIN, args, {
    env: { DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0' },
    timeoutMs: 30_000,
  });
}

test('with the sample serving on the embedded database, routes prints the routes in a second process, opening nothing', async () => {
  dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'keel-sample-commands-')), 'postgres');
  sample = await startSample({ embedded: true, dataDir });
  await waitUntilReady(sample.url);
  const holder = await readFile(`${dataDir}.pid`, 'utf8');

  const routes = await command(['routes']);

  expect(routes.stderr).not.toContain('E_DATA_DIR_IN_USE');
  expect(routes.code).toBe(0);
  expect(routes.stdout).toMatch(/^GET\s+\/api\/orders\s+OrderApiController\.index\s+api\.orders\.index$/m);
  expect(routes.stdout).toMatch(/^GET\s+\/health\/ready\s/m);
  expect(await readFile(`${dataDir}.pid`, 'utf8')).toBe(holder);
  expect((await fetch(`${sample.url}/health/ready`)).status).toBe(200);
}, 120_000);

test('a mistyped command exits 2 with the commands listed, opening nothing', async () => {
  const typo = await command(['rutes']);

  expect(typo.code).toBe(2);
  expect(typo.stderr).toContain("unknown command 'rutes'");
  expect(typo.stderr).not.toContain('E_DATA_DIR_IN_USE');
  expect(typo.stdout).toBe('');
}, 60_000);

test('a command that needs the database opens it: migrate:status meets the running server holding it', async () => {
  const status = await command(['migrate:status']);

  expect(status.code).toBe(1);
  expect(status.stderr).toContain('E_DATA_DIR_IN_USE');
}, 60_000);
