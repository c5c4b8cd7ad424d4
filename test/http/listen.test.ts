import type { Application, BoundAddress } from 'keel';
import { bootApp, moduleWith } from '../factories/app';

let app: Application;
let bound: BoundAddress;

beforeAll(async () => {
  app = await bootApp(moduleWith({}));
  app.router
    .get('/orders/:id', (ctx) => ({ id: ctx.param('id'), page: ctx.query('page', '1') }))
    .post('/echo', (ctx) => ctx.json(201, { form: ctx.form('name', 'none') }))
    .get('/boom', () => {
      throw new Error('secret');
    });
  bound = await app.listen(0, '127.0.0.1');
});

afterAll(async () => {
  await app.close();
});

test('listen(0) binds a free port on the given host and reports its url', () => {
  expect(bound.address).toBe('127.0.0.1');
  expect(bound.port).toBeGreaterThan(0);
  expect(bound.url).toBe(`http://127.0.0.1:${bound.port}`);
});

test('a server on every interface reports a localhost url that answers', async () => {
  const everywhere = await bootApp(moduleWith({}));
  everywhere.router.get('/ping', () => ({ pong: true }));
  try {
    const { url, port } = await everywhere.listen(0);
    expect(url).toBe(`http://localhost:${port}`);
    expect(await (await fetch(`${url}/ping`)).json()).toEqual({ pong: true });
  } finally {
    await everywhere.close();
  }
});

test('a real client reads params and query through the bound url', async () => {
  const res = await fetch(`${bound.url}/orders/42?page=3`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ id: '42', page: '3' });
});

test('a real client posts a urlencoded form', async () => {
  const res = await fetch(`${bound.url}/echo`, {
    method: 'POST',
    body: new URLSearchParams({ name: 'Ada' }),
  });
  expect(res.status).toBe(201);
  expect(await res.json()).toEqual({ form: 'Ada' });
});

test('a real client posts a multipart form', async () => {
  const form = new FormData();
  form.set('name', 'Grace');
  const res = await fetch(`${bound.url}/echo`, { method: 'POST', body: form });
  expect(await res.json()).toEqual({ form: 'Grace' });
});

test('a malformed JSON body over the wire is 400 and the server keeps serving', async () => {
  const bad = await fetch(`${bound.url}/echo`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"name":',
  });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({ error: 'malformed JSON body' });
  expect((await fetch(`${bound.url}/orders/1`)).status).toBe(200);
});

test('a thrown error over the wire is 500 without the message, and the server keeps serving', async () => {
  const res = await fetch(`${bound.url}/boom`);
  expect(res.status).toBe(500);
  expect(await res.text()).toBe('{"error":"internal server error"}');
  expect((await fetch(`${bound.url}/orders/1`)).status).toBe(200);
});

test('after close() the url no longer answers', async () => {
  const other = await bootApp(moduleWith({}));
  other.router.get('/ping', () => ({ pong: true }));
  const { url } = await other.listen(0, '127.0.0.1');
  expect((await fetch(`${url}/ping`)).status).toBe(200);
  await other.close();
  await expect(fetch(`${url}/ping`)).rejects.toThrow('fetch failed');
});
