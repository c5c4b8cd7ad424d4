import express from 'express';
import request from 'supertest';
import { createExpressApp } from '../../src/http/express-app';

// keel builds its Express application below Express's index: it must be what `express()` gives.
describe('createExpressApp', () => {
  const made = createExpressApp();
  const reference = express();

  test('has the properties of express(), each of the same kind', () => {
    const shape = (app: object) =>
      Object.getOwnPropertyNames(app)
        .sort()
        .map((name) => [name, typeof (app as Record<string, unknown>)[name]]);
    expect(shape(made)).toEqual(shape(reference));
  });

  test('has the settings of express()', () => {
    expect(made.settings).toEqual(reference.settings);
    expect(made.locals).toEqual(reference.locals);
  });

  test("gives requests and responses Express's helpers, linked to itself", () => {
    expect(Object.getPrototypeOf(made.request)).toBe(express.request);
    expect(Object.getPrototypeOf(made.response)).toBe(express.response);
    expect((made.request as { app?: unknown }).app).toBe(made);
    expect((made.response as { app?: unknown }).app).toBe(made);
  });

  test('serves as an Express application: routes, middleware, settings read by the helpers', async () => {
    const app = createExpressApp();
    app.set('json spaces', 2);
    app.use((req, res, next) => {
      res.setHeader('X-Seen', req.get('x-asked') ?? 'none');
      next();
    });
    app.get('/items/:id', (req, res) => {
      res.json({ id: req.params.id, secure: req.secure });
    });
    const res = await request(app).get('/items/7').set('X-Asked', 'yes');
    expect(res.status).toBe(200);
    expect(res.headers['x-seen']).toBe('yes');
    expect(res.text).toBe(JSON.stringify({ id: '7', secure: false }, null, 2));
    expect((await request(app).get('/nowhere')).status).toBe(404);
  });
});
