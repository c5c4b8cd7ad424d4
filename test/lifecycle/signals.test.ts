import http from 'node:http';
import { killRunningApps, logged, startApp, type ChildApp, type OutputLine } from '../factories/child-app';
import { get, within } from '../factories/http-client';

// Each test starts a real process (~0.5 s) and waits on real timers.
jest.setTimeout(20_000);

afterEach(() => killRunningApps());

const STOPPED_ACCEPTING = 'server stops accepting; waiting for the requests in flight';

function received(lines: OutputLine[]): unknown[] {
  return lines.filter((line) => 'received' in line).map((line) => line.received);
}

function waitForReceived(app: ChildApp, count: number): Promise<void> {
  return app.waitFor(`${count} requests received`, (lines) => received(lines).length >= count);
}

function hookCalls(lines: OutputLine[]): unknown[] {
  return lines.filter((line) => 'hook' in line).map((line) => `${line.hook}(${line.signal})`);
}

describe('SIGTERM', () => {
  test('answers every accepted request, refuses new connections, and exits 0', async () => {
    const app = await startApp();
    const ids = Array.from({ length: 30 }, (_, index) => String(index));
    let answered = 0;
    const answers = ids.map((id) =>
      get(`${app.url}/slow?id=${id}&ms=300`).finally(() => {
        answered += 1;
      }),
    );
    await waitForReceived(app, ids.length);

    app.child.kill('SIGTERM');
    await app.waitFor('the server to stop accepting', (lines) => logged(lines, STOPPED_ACCEPTING).length > 0);
    await expect(get(`${app.url}/state`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const answeredBeforeRefusal = answered;

    const results = await within(Promise.all(answers), 5000, 'answers to the requests in flight');
    const exit = await within(app.exited, 5000, 'exit');

    expect(answeredBeforeRefusal).toBe(0);
    expect(results.map(({ status, body }) => ({ status, body }))).toEqual(
      ids.map((id) => ({ status: 200, body: JSON.stringify({ id }) })),
    );
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(hookCalls(app.lines())).toEqual([
      'beforeApplicationShutdown(SIGTERM)',
      'onApplicationShutdown(SIGTERM)',
    ]);
    await expect(get(`${app.url}/state`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  test('keep-alive connections do not hold the exit until the keep-alive timeout', async () => {
    const app = await startApp();
    const agent = new http.Agent({ keepAlive: true });
    // Three pooled connections: two will be busy when the signal comes, one idle.
    await Promise.all([1, 2, 3].map(() => get(`${app.url}/state`, agent)));
    const slow = ['a', 'b'].map((id) => get(`${app.url}/slow?id=${id}&ms=300`, agent));
    await waitForReceived(app, 2);

    app.child.kill('SIGTERM');
    const results = await within(Promise.all(slow), 5000, 'answers on keep-alive connections');
    const lastAnswerAt = performance.now();
    const exit = await within(app.exited, 8000, 'exit');
    agent.destroy();

    expect(results).toEqual([
      { status: 200, connection: 'close', body: '{"id":"a"}' },
      { status: 200, connection: 'close', body: '{"id":"b"}' },
    ]);
    expect(exit).toMatchObject({ code: 0, signal: null });
    // Left to Node, an open keep-alive connection would keep the server alive for its 5 s keepAliveTimeout.
    expect(exit.at - lastAnswerAt).toBeLessThan(1500);
  });

  test('a request that never finishes makes the process exit 1 once shutdownTimeoutMs has passed', async () => {
    const app = await startApp({ SHUTDOWN_TIMEOUT_MS: '300' });
    const hungUp = expect(get(`${app.url}/hang`)).rejects.toThrow('socket hang up');
    await waitForReceived(app, 1);

    const signalledAt = performance.now();
    app.child.kill('SIGTERM');
    const exit = await within(app.exited, 5000, 'exit');

    expect(exit).toMatchObject({ code: 1, signal: null });
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(300);
    await hungUp;
    const lines = app.lines();
    expect(
      logged(lines, 'requests still in flight after shutdownTimeoutMs; their connections were closed'),
    ).toEqual([expect.objectContaining({ inFlight: 1 })]);
    expect(hookCalls(lines)).toContain('onApplicationShutdown(SIGTERM)');
  });

  test('during shutdownDelayMs the server still answers and isShuttingDown is true', async () => {
    const app = await startApp({ SHUTDOWN_DELAY_MS: '800' });
    const before = await get(`${app.url}/state`);

    const signalledAt = performance.now();
    app.child.kill('SIGTERM');
    await app.waitFor('the shutdown to start', (lines) => logged(lines, 'shutting down').length > 0);
    const during = await get(`${app.url}/state`);
    const hooksDuringDelay = hookCalls(app.lines());
    const exit = await within(app.exited, 5000, 'exit');

    expect(JSON.parse(before.body)).toEqual({ isShuttingDown: false });
    expect(during.status).toBe(200);
    expect(JSON.parse(during.body)).toEqual({ isShuttingDown: true });
    expect(hooksDuringDelay).toEqual([]);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(800);
  });

  test('a second SIGTERM during the shutdown does not start another one', async () => {
    const app = await startApp();
    const slow = get(`${app.url}/slow?id=only&ms=400`);
    await waitForReceived(app, 1);

    app.child.kill('SIGTERM');
    await app.waitFor('the first signal', (lines) => logged(lines, 'signal received').length > 0);
    app.child.kill('SIGTERM');
    const answer = await within(slow, 5000, 'the answer in flight');
    const exit = await within(app.exited, 5000, 'exit');

    const lines = app.lines();
    expect(answer.status).toBe(200);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(logged(lines, 'shutting down')).toHaveLength(1);
    expect(logged(lines, 'signal received during the shutdown; the shutdown goes on')).toHaveLength(1);
    expect(hookCalls(lines)).toEqual([
      'beforeApplicationShutdown(SIGTERM)',
      'onApplicationShutdown(SIGTERM)',
    ]);
  });

  test.each(['before', 'after'])(
    'a %s-shutdown hook that never settles is cut short: the process exits 1',
    async (hook) => {
      // After the drain nothing holds the event loop open: only the deadline timer can end the process.
      const app = await startApp({ HANG_HOOK: hook, SHUTDOWN_TIMEOUT_MS: '200' });

      app.child.kill('SIGTERM');
      const exit = await within(app.exited, 5000, 'exit');

      expect(exit).toMatchObject({ code: 1, signal: null });
      expect(logged(app.lines(), 'shutdown outlived its deadline')).toHaveLength(1);
    },
  );
});

test('SIGINT shuts down gracefully too, and the hooks receive it', async () => {
  const app = await startApp();

  app.child.kill('SIGINT');
  const exit = await within(app.exited, 5000, 'exit');

  expect(exit).toMatchObject({ code: 0, signal: null });
  expect(hookCalls(app.lines())).toEqual([
    'beforeApplicationShutdown(SIGINT)',
    'onApplicationShutdown(SIGINT)',
  ]);
});

test('with handleSignals: false, SIGTERM is not intercepted: the process dies by the signal', async () => {
  const app = await startApp({ HANDLE_SIGNALS: 'false' });

  app.child.kill('SIGTERM');
  const exit = await within(app.exited, 5000, 'exit');

  expect(exit).toMatchObject({ code: null, signal: 'SIGTERM' });
  expect(hookCalls(app.lines())).toEqual([]);
});
