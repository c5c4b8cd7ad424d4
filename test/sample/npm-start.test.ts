import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { waitUntilReady } from '../factories/sample';
import { eventually } from '../factories/eventually';
import { listeningUrl } from '../factories/npm-start';
import { within } from '../factories/http-client';

// The README's first command, run as written: `npm start` at the repository root, with no
// DATABASE_URL, builds keel and the sample and serves on the embedded database. It runs in a copy of
// the repository (node_modules linked), so its build never rewrites the dist/ other tests load.
const ROOT = path.join(__dirname, '..', '..');
const LEFT_OUT = new Set(['node_modules', 'dist', '.data', '.git', 'coverage', 'test', 'bench', 'docs']);

let checkout: string;
let npmStart: ChildProcess;
let output = '';

beforeAll(async () => {
  checkout = await mkdtemp(path.join(os.tmpdir(), 'keel-checkout-'));
  await cp(ROOT, checkout, { recursive: true, filter: (source) => !LEFT_OUT.has(path.basename(source)) });
  await symlink(path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules'));
  startNpm();
}, 30_000);

function startNpm(): void {
  output = '';
  // Its own process group, so that the test can stop npm and the node it started together.
  npmStart = spawn('npm', ['start'], {
    cwd: checkout,
    env: { ...withoutDatabaseUrl(process.env), PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  npmStart.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  npmStart.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
}

async function isRefused(url: string): Promise<boolean> {
  return fetch(`${url}/health`).then(
    () => false,
    () => true,
  );
}

afterAll(async () => {
  if (npmStart.pid !== undefined && npmStart.exitCode === null) {
    const ended = new Promise((resolve) => npmStart.once('close', resolve));
    process.kill(-npmStart.pid, 'SIGTERM');
    await within(ended, 15_000, 'npm start to stop').catch(() =>
      process.kill(-(npmStart.pid as number), 'SIGKILL'),
    );
  }
  await rm(checkout, { recursive: true, force: true });
}, 30_000);

function withoutDatabaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'DATABASE_URL'));
}

test('npm start, without DATABASE_URL, serves the sample: /health 200, then /health/ready 200', async () => {
  const url = await listeningUrl(npmStart, () => output, 90_000);
  expect(output).toContain('"database":"embedded PostgreSQL (PGlite), data in');

  const health = await fetch(`${url}/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });

  await waitUntilReady(url);
  const ready = await fetch(`${url}/health/ready`);
  expect(ready.status).toBe(200);
  // The sample's orders enqueue their confirmation: its readiness waits for the job queue too.
  expect(await ready.json()).toEqual({ status: 'ready', db: 'connected', jobs: 'connected' });
}, 120_000);

test('SIGTERM to npm alone stops the server it started, and the next npm start serves', async () => {
  const url = await listeningUrl(npmStart, () => output, 90_000);
  await waitUntilReady(url);
  const npmEnded = new Promise((resolve) => npmStart.once('close', resolve));

  // What a process manager or `docker stop` does: a signal to npm's process, not to its group.
  npmStart.kill('SIGTERM');
  await within(npmEnded, 15_000, 'npm to exit');
  await eventually(() => isRefused(url), { within: 15_000, every: 100, what: 'the server to stop' });

  startNpm();
  const next = await listeningUrl(npmStart, () => output, 90_000);
  await waitUntilReady(next);
  expect(output).not.toContain('is in use by process');
}, 180_000);
