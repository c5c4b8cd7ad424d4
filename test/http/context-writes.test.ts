import request from 'supertest';
import type { Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({}));
  app.router
    .post('/orders', (ctx) => ctx.json(201, { id: 7, lines: [1, 2] }))
    .get('/greeting', (ctx) => ctx.html(200, 'pages/greeting.html', { name: ctx.query('name', 'keel') }))
    .post('/greeting', (ctx) => ctx.html(422, 'pages/greeting.html', { name: 'again' }))
    .post('/orders/form', (ctx) => ctx.redirect(303, '/orders/7'))
    .delete('/orders/:id', (ctx) => ctx.noContent())
    .get('/orders/:id', (ctx) => ctx.error(404, `order ${ctx.param('id')} not found`));
});

describe('ctx.json', () => {
  test('sends the value as JSON with the given status', async () => {
    const res = await request(listenerOf(app)).post('/orders');
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).toBe('{"id":7,"lines":[1,2]}');
  });
});

describe('ctx.html', () => {
  test('renders the template from the views directory with the data', async () => {
    const res = await request(listenerOf(app)).get('/greeting?name=Ada');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe('<p>Hello, Ada!</p>\n');
  });

  test('escapes markup in the data', async () => {
    const res = await request(listenerOf(app))
      .get('/greeting')
      .query({ name: '<script>alert("x")</script>' });
    expect(res.text).toBe('<p>Hello, &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;!</p>\n');
    expect(res.text).not.toContain('<script>');
  });

  test('sends the given status with the page', async () => {
    const res = await request(listenerOf(app)).post('/greeting');
    expect(res.status).toBe(422);
    expect(res.text).toBe('<p>Hello, again!</p>\n');
  });
});

describe('ctx.redirect', () => {
  test('answers 303 with the path in Location', async () => {
    const res = await request(listenerOf(app)).post('/orders/form').type('form').send({ item: 'tea' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/orders/7');
  });
});

describe('ctx.noContent', () => {
  test('answers 204 with no body and no content type', async () => {
    const res = await request(listenerOf(app)).delete('/orders/7');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
  });
});

describe('ctx.error', () => {
  test('answers the status with {"error": message}', async () => {
    const res = await request(listenerOf(app)).get('/orders/9');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).toBe('{"error":"order 9 not found"}');
  });
});
