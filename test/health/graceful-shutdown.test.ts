import { killRunningApps, logged, startApp, type ChildApp } from '../factories/child-app';
import { eventually } from '../factories/eventually';
import { get, within, type Answer } from '../factories/http-client';
import { waitForStatus } from '../factories/http-status';
import { PostgresProxy } from '../factories/postgres-proxy';
import { postgresUrl } from '../factories/test-databases';

// Each test starts a real process with a real database connection and waits on real timers.
jest.setTimeout(30_000);

const proxies: PostgresProxy[] = [];
afterEach(async () => {
  killRunningApps();
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

function startHealthApp(env: Record<string, string>): Promise<ChildApp> {
  return startApp({ DATABASE_URL: postgresUrl(), ...env }, 'health-app.mjs');
}

function waitUntilReady(app: ChildApp): Promise<void> {
  return waitForStatus(`${app.url}/health/ready`, 200, 5000);
}

describe('SIGTERM under load, with health probes', () => {
  test('every accepted request completes, readiness says 503 during the drain, liveness 200, exit 0', async () => {
    const app = await startHealthApp({ SHUTDOWN_DELAY_MS: '500' });
    await waitUntilReady(app);
    const ids = Array.from({ length: 40 }, (_, index) => String(index));
    const answers = ids.map((id) => get(`${app.url}/slow?id=${id}&ms=800`));
    await app.waitFor(
      'every request received',
      (lines) => lines.filter((line) => 'received' in line).length >= ids.length,
    );

    app.child.kill('SIGTERM');
    await app.waitFor('the shutdown to start', (lines) => logged(lines, 'shutting down').length > 0);
    // Within shutdownDelayMs the server still accepts: the orchestrator sees readiness fail.
    const [readiness, liveness] = await Promise.all([
      get(`${app.url}/health/ready`),
      get(`${app.url}/health`),
    ]);
    const results: Answer[] = await within(Promise.all(answers), 10_000, 'answers to the requests in flight');
    const exit = await within(app.exited, 10_000, 'exit');

    expect(readiness).toMatchObject({ status: 503, cacheControl: 'no-store' });
    expect(JSON.parse(readiness.body)).toEqual({ status: 'error', db: 'shutting down' });
    expect(liveness.status).toBe(200);
    expect(JSON.parse(liveness.body)).toEqual({ status: 'ok' });
    expect(results.map(({ status, body }) => ({ status, body }))).toEqual(
      ids.map((id) => ({ status: 200, body: JSON.stringify({ id }) })),
    );
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(logged(app.lines(), 'database connection closed')).toHaveLength(1);
  });

  test('a handler that never finishes makes the process exit non-zero at shutdownTimeoutMs', async () => {
    const app = await startHealthApp({ SHUTDOWN_TIMEOUT_MS: '800' });
    await waitUntilReady(app);
    void get(`${app.url}/hang`).catch(() => undefined);
    await app.waitFor('the hanging request', (lines) => lines.some((line) => line.received === 'hang'));

    const signalledAt = performance.now();
    app.child.kill('SIGTERM');
    const exit = await within(app.exited, 10_000, 'exit');

    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(700);
    expect(exit.at - signalledAt).toBeLessThan(3000);
    expect(logged(app.lines(), 'database connection closed')).toHaveLength(1);
  });

  test('a database that accepted the login and stopped answering does not hold the exit', async () => {
    const database = await PostgresProxy.start(postgresUrl(), 'hold-queries');
    proxies.push(database);
    const app = await startApp({ DATABASE_URL: database.url }, 'health-app.mjs');
    await eventually(() => database.heldQueries > 0, { within: 4000, what: 'the application to log in' });
    expect((await get(`${app.url}/health`)).status).toBe(200);

    const signalledAt = performance.now();
    app.child.kill('SIGTERM');
    const exit = await within(app.exited, 10_000, 'exit');

    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(2000);
  });
});
