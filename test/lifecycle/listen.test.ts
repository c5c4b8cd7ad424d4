import { Injectable, type Application, type OnApplicationShutdown } from 'keel';
import net from 'node:net';
import { once } from 'node:events';
import { bootApp, moduleWith } from '../factories/app';
import { HOST } from '../factories/gates';

function signalListeners(): number[] {
  return [process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')];
}

async function pingApp(): Promise<Application> {
  const app = await bootApp(moduleWith({}));
  app.router.get('/ping', () => ({ pong: true }));
  return app;
}

describe('listen()', () => {
  test('a second call rejects with E_ALREADY_LISTENING, and the first server keeps serving', async () => {
    const app = await pingApp();
    const { url } = await app.listen(0, HOST);

    await expect(app.listen(0, HOST)).rejects.toMatchObject({
      code: 'E_ALREADY_LISTENING',
      message: expect.stringContaining(`it already serves ${url}`) as unknown,
    });
    expect((await fetch(`${url}/ping`)).status).toBe(200);
    await app.close();
  });

  test('of two concurrent calls, one binds and the other rejects', async () => {
    const app = await pingApp();

    const [first, second] = await Promise.allSettled([app.listen(0, HOST), app.listen(0, HOST)]);

    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { code: 'E_ALREADY_LISTENING' } });
    await app.close();
  });

  test('after close() it rejects with E_APPLICATION_CLOSED', async () => {
    const app = await pingApp();
    await app.close();

    await expect(app.listen(0, HOST)).rejects.toMatchObject({ code: 'E_APPLICATION_CLOSED' });
  });

  test('a port in use rejects with EADDRINUSE, and listen() can be tried again', async () => {
    const taken = net.createServer().listen(0, HOST);
    await once(taken, 'listening');
    const { port } = taken.address() as net.AddressInfo;
    const app = await pingApp();

    await expect(app.listen(port, HOST)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    const { url } = await app.listen(0, HOST);

    expect((await fetch(`${url}/ping`)).status).toBe(200);
    taken.close();
    await app.close();
  });
});

describe('signal handlers', () => {
  test('listen() installs SIGTERM and SIGINT handlers, and close() removes them', async () => {
    const app = await pingApp();
    const [term, int] = signalListeners();

    await app.listen(0, HOST);
    const whileListening = signalListeners();
    await app.close();

    expect(whileListening).toEqual([term + 1, int + 1]);
    expect(signalListeners()).toEqual([term, int]);
  });

  test('the handlers are removed even when the shutdown fails', async () => {
    @Injectable()
    class FailingPool implements OnApplicationShutdown {
      onApplicationShutdown(): void {
        throw new Error('pool already closed');
      }
    }
    const app = await bootApp(moduleWith({ providers: [FailingPool] }));
    const before = signalListeners();
    await app.listen(0, HOST);

    await expect(app.close()).rejects.toMatchObject({ code: 'E_SHUTDOWN_FAILED' });

    expect(signalListeners()).toEqual(before);
  });

  test('with handleSignals: false, listen() installs none', async () => {
    const app = await bootApp(moduleWith({}), { handleSignals: false });
    const before = signalListeners();

    await app.listen(0, HOST);
    const whileListening = signalListeners();
    await app.close();

    expect(whileListening).toEqual(before);
  });
});
