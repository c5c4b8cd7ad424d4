import diagnosticsChannel from 'node:diagnostics_channel';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { bootApp, moduleWith } from '../factories/app';
import { eventually } from '../factories/eventually';
import { get, within } from '../factories/http-client';
import { closeUntilDraining, gate, HOST } from '../factories/gates';

describe('the drain and keep-alive connections', () => {
  test('an idle keep-alive connection is closed at once, and close() does not wait for its timeout', async () => {
    const app = await bootApp(moduleWith({}));
    app.router.get('/ping', () => ({ pong: true }));
    const { url } = await app.listen(0, HOST);
    const agent = new http.Agent({ keepAlive: true });
    const answer = await get(`${url}/ping`, agent);
    const [socket] = Object.values(agent.freeSockets).flat();

    await within(Promise.all([app.close(), once(socket as net.Socket, 'close')]), 1000, 'close()');

    expect(answer.connection).toBe('keep-alive');
    agent.destroy();
  });

  test('a response that promised keep-alive before the drain has its connection closed as it ends', async () => {
    const app = await bootApp(moduleWith({}));
    const streaming = gate();
    const finish = gate();
    app.router.get('/stream', async (ctx) => {
      ctx.res.writeHead(200, { 'Content-Type': 'text/plain' }).write('first ');
      streaming.open();
      await finish.opened;
      ctx.res.end('done');
    });
    const { url } = await app.listen(0, HOST);
    const agent = new http.Agent({ keepAlive: true });
    const answer = get(`${url}/stream`, agent);
    await streaming.opened;

    const { closing } = await closeUntilDraining(app);
    finish.open();
    // Node would otherwise keep the connection for its 5 s keepAliveTimeout, and close() with it.
    await within(closing, 1000, 'close()');

    expect(await answer).toEqual({ status: 200, connection: 'keep-alive', body: 'first done' });
    agent.destroy();
  });

  test('a request arriving during the drain on a connection kept alive is answered with Connection: close', async () => {
    const app = await bootApp(moduleWith({}));
    const streaming = gate();
    const finish = gate();
    const pinged = gate();
    app.router
      .get('/stream', async (ctx) => {
        ctx.res.writeHead(200, { 'Content-Type': 'text/plain' }).write('first ');
        streaming.open();
        await finish.opened;
        ctx.res.end('done');
      })
      .get('/ping', () => {
        pinged.open();
        return { pong: true };
      });
    const { port } = await app.listen(0, HOST);
    const socket = net.connect(port, HOST);
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.write(`GET /stream HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`);
    await streaming.opened;

    const { closing } = await closeUntilDraining(app);
    socket.write(`GET /ping HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`);
    await pinged.opened;
    finish.open();
    await within(Promise.all([closing, once(socket, 'close')]), 2000, 'the connection to close');

    const [streamed, pong] = received.split(/(?=HTTP\/1\.1 )/);
    expect(streamed).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: keep-alive\r\n[^]*first [^]*done/);
    expect(pong).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n[^]*\{"pong":true\}$/);
  });

  test('a request that arrives on an idle keep-alive connection while the event loop is held up during the drain is answered, not reset', async () => {
    const app = await bootApp(moduleWith({}));
    app.router.get('/ping', () => ({ pong: true }));
    const { port } = await app.listen(0, HOST);
    const socket = net.connect(port, HOST);
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const ping = `GET /ping HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`;
    socket.write(ping);
    await eventually(() => received.includes('{"pong":true}'), { within: 1000, what: 'the first answer' });

    const { closing } = await closeUntilDraining(app);
    // Past one of the drain's sweeps (every 50 ms), then two turns of the event loop: a sweep has
    // seen the connection as it is now, idle.
    holdEventLoop(60);
    await nextTurn();
    await nextTurn();
    // The request reaches the server's kernel buffer, and the event loop is held up past the idle
    // delay (250 ms): when it resumes, its timers (the sweep) run before it reads the request.
    socket.write(ping);
    holdEventLoop(400);
    await within(Promise.all([closing, once(socket, 'close')]), 2000, 'the connection to close');

    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n[^]*\{"pong":true\}$/);
  });

  test('with shutdownTimeoutMs at 0, a half-sent request is closed and not counted as a timeout', async () => {
    const app = await bootApp(moduleWith({}), { shutdownTimeoutMs: 0 });
    const { port } = await app.listen(0, HOST);
    const accepted = socketsAcceptedOn(port);
    const socket = net.connect(port, HOST);
    const halfSent = `GET /nowhere HTTP/1.1\r\nHost: ${HOST}\r\n`;
    socket.write(halfSent);
    // Until the server has read it, the connection is simply idle, and the test would be another.
    await eventually(
      () => expect(accepted.sockets.map((serverSide) => serverSide.bytesRead)).toEqual([halfSent.length]),
      { within: 1000, every: 5, what: 'the server to read the half-sent request' },
    ).finally(accepted.stop);

    await expect(within(app.close(), 1000, 'close()')).resolves.toBeUndefined();
    await within(once(socket, 'close'), 1000, 'the connection to close');
  });
});

/** The server side of each connection accepted on `port` from now on, until `stop()`. */
function socketsAcceptedOn(port: number): { readonly sockets: net.Socket[]; stop(): void } {
  const sockets: net.Socket[] = [];
  // Node announces each connection a server of this process accepts; the application's own server
  // is private to it.
  const collect = (message: unknown) => {
    const { socket } = message as { socket: net.Socket };
    if (socket.localPort === port) sockets.push(socket);
  };
  diagnosticsChannel.subscribe('net.server.socket', collect);
  return { sockets, stop: () => diagnosticsChannel.unsubscribe('net.server.socket', collect) };
}

// Runs nothing else for `ms`: what a replica busy with a long synchronous task does to its event loop.
function holdEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

// Resolves in the check phase of the event loop's next turn, after its timers and its reads.
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
