import { afterAll, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { killRunningApps, logged } from '../factories/child-app';
import { eventually } from '../factories/eventually';
import { SAMPLE_MAIN, startSample, waitUntilReady, sampleAuthorization } from '../factories/sample';

const run = promisify(execFile);
const scratch: string[] = [];

afterAll(async () => {
  killRunningApps();
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keel-sample-data-'));
  scratch.push(dir);
  return dir;
}

test('the embedded database keeps its orders across a graceful restart, and serves one process at a time', async () => {
  const dataDir = await scratchDir();
  const first = await startSample({ embedded: true, dataDir });
  await waitUntilReady(first.url);
  const created = await fetch(`${first.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await sampleAuthorization(first.url)) },
    body: JSON.stringify({ customer: 'Kept', product: 'Across restarts', quantity: 1 }),
  });
  const { id } = (await created.json()) as { id: number };

  // A second process on the same files would overwrite the first one's pages: it is refused.
  const second = await failedStart({ DATABASE_URL: '', DATA_DIR: dataDir });
  expect(second).toEqual({
    code: 1,
    stderr:
      `cannot start: E_DATA_DIR_IN_USE: the embedded database in ${dataDir} is in use by process ${first.child.pid}.\n` +
      'Fix: stop that process, or give this one another data directory.\n',
  });
  expect((await fetch(`${first.url}/api/orders/${id}`)).status).toBe(200);
  expect((await first.stop()).code).toBe(0);
  expect(logged(first.lines(), 'database connection closed')).toHaveLength(1);

  const restarted = await startSample({ embedded: true, dataDir });
  try {
    await waitUntilReady(restarted.url);
    const read = await fetch(`${restarted.url}/api/orders/${id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ customer: 'Kept', product: 'Across restarts' });
  } finally {
    await restarted.stop();
  }
}, 240_000);

test('the startup log names the database in use and the URL to open; a stale pid file is taken over', async () => {
  const dataDir = path.join(await scratchDir(), 'postgres');
  // The pid of a process that has ended: what a crashed or SIGKILLed sample leaves behind.
  const ended = await run(process.execPath, ['-p', 'process.pid']);
  await writeFile(`${dataDir}.pid`, ended.stdout);
  const sample = await startSample({ embedded: true, dataDir });
  try {
    const [database] = logged(sample.lines(), 'database');
    expect(database.database).toBe(`embedded PostgreSQL (PGlite), data in ${dataDir}`);
    expect(logged(sample.lines(), 'listening')[0].url).toMatch(/^http:\/\/localhost:\d+$/);
  } finally {
    await sample.stop();
  }
}, 120_000);

test("the embedded database's first start is boot, not overload: nothing is shed, and a request before it is connected gets 503 without an error line", async () => {
  // No dataDir: an empty temporary one, so PGlite creates its database, which holds the event loop
  // for seconds, past the sample's maxEventLoopDelayMs of 1000.
  const sample = await startSample({ embedded: true });
  try {
    const answers: { status: number; body: string }[] = [];
    const ask = async () => {
      const res = await fetch(`${sample.url}/api/orders`, { signal: AbortSignal.timeout(10_000) });
      answers.push({ status: res.status, body: await res.text() });
      return res.status;
    };
    await ask();
    await eventually(async () => (await ask()) === 200, { within: 45_000, every: 100 });
    await waitUntilReady(sample.url);

    for (const { status, body } of answers) {
      if (status === 200) continue;
      expect({ status, body: JSON.parse(body) as unknown }).toEqual({
        status: 503,
        body: { error: 'database not connected' },
      });
    }
    const lines = sample.lines();
    expect(lines.filter((line) => String(line.msg).startsWith('overloaded'))).toEqual([]);
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    // A request that met the database still connecting is said once, at warn.
    const waited = 'a request needed the database, which is still connecting: answered 503';
    const refused = answers.filter(({ status }) => status === 503).length;
    expect(logged(lines, waited).map((line) => line.level)).toEqual(refused > 0 ? [40] : []);
  } finally {
    await sample.stop();
  }
}, 120_000);

async function failedStart(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const result = await run(process.execPath, [SAMPLE_MAIN], {
    env: { ...process.env, PORT: '0', ...env },
  }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
  return result;
}

test('invalid settings stop the start with every variable and its rule, and none of their values', async () => {
  const secret = 'mysql://root:s3cr3t-pw@127.0.0.1/test';
  const { code, stderr } = await failedStart({ DATABASE_URL: secret, PORT: 'http', SHUTDOWN_DELAY_MS: '-5' });
  expect(code).toBe(1);
  expect(stderr).toMatch(
    /^cannot start: E_INVALID_CONFIG: the configuration SampleConfig is invalid \(3 variables\):\n/,
  );
  expect(stderr).toContain(
    '  PORT: PORT must not be greater than 65535; PORT must not be less than 0; PORT must be an integer number\n',
  );
  expect(stderr).toContain('  DATABASE_URL: DATABASE_URL must be a postgres:// or postgresql:// URL\n');
  expect(stderr).toContain('  SHUTDOWN_DELAY_MS: SHUTDOWN_DELAY_MS must not be less than 0\n');
  expect(stderr).not.toContain('s3cr3t');
  expect(stderr).not.toContain('http');
}, 30_000);

test('a data directory that cannot be created stops the start with one clear line', async () => {
  const blocker = path.join(await scratchDir(), 'a-file');
  await writeFile(blocker, 'not a directory');
  await chmod(blocker, 0o444);
  const { code, stderr } = await failedStart({ DATABASE_URL: '', DATA_DIR: path.join(blocker, 'postgres') });
  expect(code).toBe(1);
  expect(stderr).toMatch(/^cannot start: ENOTDIR: not a directory, mkdir '.*a-file\/postgres'\n$/);
}, 30_000);
