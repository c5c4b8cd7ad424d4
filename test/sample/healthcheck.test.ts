import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import http from 'node:http';
import { afterAll, expect, test } from '@jest/globals';
import { readHealthcheck } from '../factories/dockerfile';
import { startSample } from '../factories/sample';
import { closedPort } from '../factories/test-databases';
import { killRunningApps } from '../factories/child-app';

// The image's HEALTHCHECK command, exactly as sample/Dockerfile writes it, run as Docker would run it
// inside the container. It reads the port from PORT (default 8080, the image's), so it runs unmodified
// against servers on the free ports the tests get.

/** Docker's --timeout: past it, Docker counts the check as failed however it would have ended. */
const DOCKER_TIMEOUT_MS = 5000;

interface CheckResult {
  readonly code: number | null;
  readonly tookMs: number;
}

function runHealthcheck(port: number): Promise<CheckResult> {
  const [program, ...args] = readHealthcheck().command;
  const started = performance.now();
  const check = spawn(program, args, { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  // A check still running well past Docker's timeout is a failure the assertions report, not a hang.
  const guard = setTimeout(() => check.kill('SIGKILL'), 2 * DOCKER_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    check.on('error', reject);
    check.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, tookMs: performance.now() - started });
    });
  });
}

async function listening(server: http.Server | Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const servers: (http.Server | Server)[] = [];

afterAll(() => {
  for (const server of servers) server.close();
  killRunningApps();
});

test('passes against the running sample, even with its database unreachable, and fails once it has stopped', async () => {
  // Liveness never touches the database: a sample whose PostgreSQL does not answer is still alive.
  const sample = await startSample({ url: `postgres://postgres@127.0.0.1:${await closedPort()}/orders` });
  const port = Number(new URL(sample.url).port);
  try {
    expect((await runHealthcheck(port)).code).toBe(0);
  } finally {
    await sample.stop();
  }
  expect((await runHealthcheck(port)).code).not.toBe(0);
}, 120_000);

test('fails against a server that answers /health with 500', async () => {
  const failing = http.createServer((_req, res) =>
    res.writeHead(500).end('{"error":"internal server error"}'),
  );
  servers.push(failing);
  expect((await runHealthcheck(await listening(failing))).code).not.toBe(0);
});

test('fails, within Docker’s 5 s timeout, against a server that accepts and never answers', async () => {
  const silent = createServer(() => {});
  servers.push(silent);
  const result = await runHealthcheck(await listening(silent));
  expect(result.code).not.toBe(0);
  expect(result.tookMs).toBeLessThan(DOCKER_TIMEOUT_MS);
}, 15_000);
