import { once } from 'node:events';
import net from 'node:net';
import type { Application, ApplicationOptions } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { HOST } from '../factories/gates';
import { within } from '../factories/http-client';

const apps: Application[] = [];
afterEach(async () => {
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
});

async function listening(options: ApplicationOptions): Promise<number> {
  const app = await bootApp(moduleWith({}), { handleSignals: false, ...options });
  app.router.post('/echo', (ctx) => ({ got: ctx.req.body as unknown }));
  apps.push(app);
  return (await app.listen(0, HOST)).port;
}

/** Opens a raw connection, writes `start`, and resolves with what the server sent until it closed. */
async function stallAfter(port: number, start: string): Promise<{ received: string; ms: number }> {
  const socket = net.connect(port, HOST);
  let received = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  socket.write(start);
  const startedAt = performance.now();
  await within(once(socket, 'close'), 5000, 'the server to close the connection');
  return { received, ms: performance.now() - startedAt };
}

test('a body that arrives too slowly is cut at requestTimeoutMs with 408', async () => {
  const port = await listening({ requestTimeoutMs: 400, headersTimeoutMs: 200 });
  const { received, ms } = await stallAfter(
    port,
    `POST /echo HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`,
  );

  expect(received).toMatch(/^HTTP\/1\.1 408 [^]*\r\n\r\n\{"error":"request timeout"\}$/);
  expect(ms).toBeGreaterThanOrEqual(350);
  expect(ms).toBeLessThan(1500);
});

test('headers that arrive too slowly are cut at headersTimeoutMs with 408', async () => {
  const port = await listening({ requestTimeoutMs: 2000, headersTimeoutMs: 300 });
  const { received, ms } = await stallAfter(port, `GET /slow HTTP/1.1\r\nHost: ${HOST}\r\n`);

  expect(received).toMatch(/^HTTP\/1\.1 408 /);
  // In the application's error shape, as every error answer.
  expect(received).toMatch(
    /\r\nContent-Type: application\/json; charset=utf-8\r\n[^]*\r\n\r\n\{"error":"request timeout"\}$/,
  );
  expect(ms).toBeLessThan(1500);
});

test('an idle keep-alive connection is closed at keepAliveTimeoutMs', async () => {
  const port = await listening({ keepAliveTimeoutMs: 300 });
  const { received, ms } = await stallAfter(
    port,
    `POST /echo HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
  );

  expect(received).toMatch(/^HTTP\/1\.1 201 [^]*Keep-Alive: timeout=0\r\n/);
  // Node keeps a second of slack past the timeout it announces.
  expect(ms).toBeLessThan(2500);
});

test('connections past maxConnections are closed as they arrive', async () => {
  const port = await listening({ maxConnections: 2 });
  const open = [net.connect(port, HOST), net.connect(port, HOST)];
  await Promise.all(open.map((socket) => once(socket, 'connect')));
  const { received } = await stallAfter(port, '');

  expect(received).toBe('');
  for (const socket of open) expect(socket.destroyed).toBe(false);
  for (const socket of open) socket.destroy();
});

test.each<[keyof ApplicationOptions, unknown]>([
  ['requestTimeoutMs', -1],
  ['headersTimeoutMs', '10s'],
  ['keepAliveTimeoutMs', Number.NaN],
  ['maxConnections', 0],
  ['maxConnections', 1.5],
])('%s = %p fails boot with E_INVALID_OPTION', async (option, value) => {
  await expect(bootApp(moduleWith({}), { [option]: value })).rejects.toMatchObject({
    code: 'E_INVALID_OPTION',
    message: expect.stringContaining(`the option ${option} is`) as unknown,
  });
});

test('a headers timeout longer than the request timeout fails boot, naming both', async () => {
  await expect(
    bootApp(moduleWith({}), { headersTimeoutMs: 5000, requestTimeoutMs: 1000 }),
  ).rejects.toMatchObject({ code: 'E_INVALID_OPTION', message: expect.stringContaining('requestTimeoutMs') });
});
