import request from 'supertest';
import type { Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({}));
  app.router
    .get('/orders/:id', (ctx) => {
      const id = ctx.param('id');
      return { id, type: typeof id };
    })
    .get('/pages', (ctx) => ({ page: ctx.query('page', '1') }))
    .get('/search', (ctx) => ({ q: ctx.query('q') ?? null }))
    .post('/subscribe', (ctx) => ({ email: ctx.form('email', 'none') }))
    .get('/agent', (ctx) => {
      ctx.res.status(202).set('X-Seen-Agent', ctx.req.get('user-agent')).send('answered by res');
    })
    .get('/later', (ctx) => {
      const res = ctx.res;
      setTimeout(() => res.status(200).send('answered later'), 10);
    });
});

describe('ctx.param', () => {
  test('reads a numeric-looking path parameter as a string', async () => {
    const res = await request(listenerOf(app)).get('/orders/42');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: '42', type: 'string' });
  });

  test('reads a percent-encoded path parameter decoded', async () => {
    const res = await request(listenerOf(app)).get('/orders/a%20b');
    expect(res.body).toEqual({ id: 'a b', type: 'string' });
  });
});

describe('ctx.query', () => {
  test.each([
    ["gives the fallback '1' when the query value is absent", '/pages', '1'],
    ['gives the query value when present', '/pages?page=3', '3'],
    ['gives the first value when the name is repeated', '/pages?page=2&page=5', '2'],
    ['gives an empty string, not the fallback, for a present but empty value', '/pages?page=', ''],
  ])('%s', async (_behaviour, path, page) => {
    const res = await request(listenerOf(app)).get(path);
    expect(res.body).toEqual({ page });
  });

  test('gives undefined without a fallback when the value is absent', async () => {
    const res = await request(listenerOf(app)).get('/search');
    expect(res.body).toEqual({ q: null });
  });
});

describe('ctx.form', () => {
  test('reads a field from a urlencoded form', async () => {
    const res = await request(listenerOf(app)).post('/subscribe').type('form').send({ email: 'a@b.co' });
    expect(res.body).toEqual({ email: 'a@b.co' });
  });

  test('reads a field from a multipart form', async () => {
    const res = await request(listenerOf(app)).post('/subscribe').field('email', 'm@b.co');
    expect(res.body).toEqual({ email: 'm@b.co' });
  });

  test('reads the first value of a repeated urlencoded field', async () => {
    const res = await request(listenerOf(app))
      .post('/subscribe')
      .type('form')
      .send('email=first%40b.co&email=second%40b.co');
    expect(res.body).toEqual({ email: 'first@b.co' });
  });

  test('gives the fallback when the field is absent from a urlencoded form', async () => {
    const res = await request(listenerOf(app)).post('/subscribe').type('form').send({ name: 'Ada' });
    expect(res.body).toEqual({ email: 'none' });
  });

  test('gives the fallback when the field is absent from a multipart form', async () => {
    const res = await request(listenerOf(app)).post('/subscribe').field('name', 'Ada');
    expect(res.body).toEqual({ email: 'none' });
  });

  test('gives the fallback when the request has no body', async () => {
    const res = await request(listenerOf(app)).post('/subscribe');
    expect(res.body).toEqual({ email: 'none' });
  });
});

describe('ctx.req and ctx.res', () => {
  test('expose the Express request and response', async () => {
    const res = await request(listenerOf(app)).get('/agent').set('User-Agent', 'keel-test/1');
    expect(res.status).toBe(202);
    expect(res.headers['x-seen-agent']).toBe('keel-test/1');
    expect(res.text).toBe('answered by res');
  });

  test('taking over ctx.res lets the handler answer after it returns', async () => {
    const res = await request(listenerOf(app)).get('/later');
    expect(res.status).toBe(200);
    expect(res.text).toBe('answered later');
  });
});
