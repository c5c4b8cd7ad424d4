import { once } from 'node:events';
import net from 'node:net';
import request from 'supertest';
import type { Application } from 'keel';
import { bootApp, listenerOf, moduleWith } from '../factories/app';

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({}), { handleSignals: false });
  app.router.post('/echo', (ctx) => ({ got: ctx.req.body as unknown }));
});

afterAll(() => app.close());

test('a gzip Content-Encoding on a body that is not gzip is a 400 in keel words', async () => {
  const res = await request(listenerOf(app))
    .post('/echo')
    .set('Content-Type', 'application/json')
    .set('Content-Encoding', 'gzip')
    .send('{"not":"gzip"}');

  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: 'request body does not match its Content-Encoding' });
});

test('error answers tell browsers not to sniff their type, even when they echo the path', async () => {
  const res = await request(listenerOf(app)).get('/<script>alert(1)</script>');

  expect(res.status).toBe(404);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
});

test('CONNECT is answered 405, not dropped', async () => {
  const { port } = await app.listen(0, '127.0.0.1');
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
  socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
  await once(socket, 'close');

  expect(received).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
  expect(received).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
  expect(received.split('\r\n\r\n')[1]).toBe('{"error":"method CONNECT not allowed"}');
});
