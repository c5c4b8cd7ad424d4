import { Injectable, type BeforeApplicationShutdown, type Class, type OnApplicationShutdown } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { captureLog, ERROR_LEVEL } from '../factories/log';
import { get, within } from '../factories/http-client';
import { closeUntilDraining, gate, HOST } from '../factories/gates';

/** A provider class named `name` that records its shutdown hooks in `calls`, or throws from `fails`. */
function shutdownRecorder(name: string, calls: string[], fails?: 'before' | 'on'): Class {
  @Injectable()
  class Recorder implements BeforeApplicationShutdown, OnApplicationShutdown {
    beforeApplicationShutdown(): void {
      calls.push(`${name}.before`);
      if (fails === 'before') throw new Error(`${name} could not stop`);
    }
    async onApplicationShutdown(): Promise<void> {
      calls.push(`${name}.on`);
      if (fails === 'on') throw new Error(`${name} could not close`);
    }
  }
  Object.defineProperty(Recorder, 'name', { value: name });
  return Recorder;
}

describe('close()', () => {
  test('isShuttingDown is true from the call on; a second call returns the same promise and runs the hooks once', async () => {
    const calls: string[] = [];
    const app = await bootApp(moduleWith({ providers: [shutdownRecorder('Cache', calls)] }));

    expect(app.isShuttingDown).toBe(false);
    const first = app.close('SIGTERM');
    const isShuttingDown = app.isShuttingDown;
    const second = app.close('SIGINT');
    await first;

    expect(isShuttingDown).toBe(true);
    expect(second).toBe(first);
    expect(calls).toEqual(['Cache.before', 'Cache.on']);
  });

  test('the hooks already see isShuttingDown true', async () => {
    const seen: boolean[] = [];
    @Injectable()
    class Probe implements BeforeApplicationShutdown {
      beforeApplicationShutdown(): void {
        seen.push(app.isShuttingDown);
      }
    }
    const app = await bootApp(moduleWith({ providers: [Probe] }));

    await app.close();

    expect(seen).toEqual([true]);
  });

  test('on an application that never listened, it still runs the hooks', async () => {
    const calls: string[] = [];
    const app = await bootApp(moduleWith({ providers: [shutdownRecorder('Cache', calls)] }));

    await app.close();

    expect(calls).toEqual(['Cache.before', 'Cache.on']);
  });

  test('lets the request in flight finish before onApplicationShutdown, refusing new connections meanwhile', async () => {
    const calls: string[] = [];
    const app = await bootApp(moduleWith({ providers: [shutdownRecorder('Pool', calls)] }));
    const arrived = gate();
    const release = gate();
    app.router.get('/slow', async () => {
      arrived.open();
      await release.opened;
      calls.push('answered');
      return { done: true };
    });
    const { url } = await app.listen(0, HOST);
    const answer = get(`${url}/slow`);
    await arrived.opened;

    const { closing } = await closeUntilDraining(app);
    await expect(get(`${url}/slow`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const callsWhileDraining = [...calls];
    release.open();
    await within(closing, 2000, 'close()');

    expect(callsWhileDraining).toEqual(['Pool.before']);
    expect(calls).toEqual(['Pool.before', 'answered', 'Pool.on']);
    expect(await answer).toEqual({ status: 200, connection: 'close', body: '{"done":true}' });
  });

  test('logs each step of the shutdown', async () => {
    const log = captureLog();
    const app = await bootApp(moduleWith({}), { logger: log.logger, handleSignals: false });
    await app.listen(0, HOST);

    await app.close('SIGTERM');

    const messages = log.entries().map((entry) => entry.msg);
    expect(messages.slice(messages.indexOf('shutting down'))).toEqual([
      'shutting down',
      'server stops accepting; waiting for the requests in flight',
      'server drained',
      'shut down',
    ]);
  });

  test('keeps serving through shutdownDelayMs, before any hook runs', async () => {
    const calls: string[] = [];
    const app = await bootApp(moduleWith({ providers: [shutdownRecorder('Pool', calls)] }), {
      shutdownDelayMs: 200,
    });
    app.router.get('/state', () => ({ isShuttingDown: app.isShuttingDown }));
    const { url } = await app.listen(0, HOST);

    const closing = app.close();
    const during = await get(`${url}/state`);
    const callsDuringDelay = [...calls];
    await within(closing, 2000, 'close()');

    expect(during).toMatchObject({ status: 200, body: '{"isShuttingDown":true}' });
    expect(callsDuringDelay).toEqual([]);
    expect(calls).toEqual(['Pool.before', 'Pool.on']);
  });
});

describe('a shutdown that fails', () => {
  test('runs every hook, logs each failure, closes the server, and rejects naming the failures', async () => {
    const calls: string[] = [];
    const log = captureLog();
    const app = await bootApp(
      moduleWith({
        providers: [
          shutdownRecorder('Mailer', calls),
          shutdownRecorder('Queue', calls, 'before'),
          shutdownRecorder('Pool', calls, 'on'),
        ],
      }),
      { logger: log.logger },
    );
    app.router.get('/ping', () => ({ pong: true }));
    const { url } = await app.listen(0, HOST);

    const closing = app.close('SIGTERM');

    await expect(closing).rejects.toMatchObject({ code: 'E_SHUTDOWN_FAILED' });
    await expect(closing).rejects.toThrow(
      'E_SHUTDOWN_FAILED: the shutdown finished, but not cleanly:\n' +
        '- Queue.beforeApplicationShutdown threw: Queue could not stop\n' +
        '- Pool.onApplicationShutdown threw: Pool could not close',
    );
    expect(calls).toEqual([
      'Pool.before',
      'Queue.before',
      'Mailer.before',
      'Pool.on',
      'Queue.on',
      'Mailer.on',
    ]);
    const errors = log.entries().filter((entry) => entry.level === ERROR_LEVEL);
    expect(errors.map((entry) => [entry.msg, entry.err?.message])).toEqual([
      ['Queue.beforeApplicationShutdown failed', 'Queue could not stop'],
      ['Pool.onApplicationShutdown failed', 'Pool could not close'],
      ['shut down with errors', expect.stringContaining('E_SHUTDOWN_FAILED')],
    ]);
    await expect(get(`${url}/ping`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  test('past shutdownTimeoutMs closes the connections still open, still runs onApplicationShutdown, and rejects', async () => {
    const calls: string[] = [];
    const app = await bootApp(moduleWith({ providers: [shutdownRecorder('Pool', calls)] }), {
      shutdownTimeoutMs: 100,
    });
    const arrived = gate();
    app.router.get('/hang', () => {
      arrived.open();
      return new Promise(() => {});
    });
    const { url } = await app.listen(0, HOST);
    const hungUp = expect(get(`${url}/hang`)).rejects.toThrow('socket hang up');
    await arrived.opened;

    const startedAt = performance.now();
    await expect(within(app.close(), 2000, 'close()')).rejects.toThrow(
      'requests were still in flight after shutdownTimeoutMs (100 ms); their connections were closed',
    );

    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(100);
    expect(calls).toEqual(['Pool.before', 'Pool.on']);
    await hungUp;
  });
});
