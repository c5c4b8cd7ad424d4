import request from 'supertest';
import type { Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';

/** An error as libraries such as express-jwt or http-errors build them: a status, no HttpError. */
function statusError(
  message: string,
  fields: { status?: number; statusCode?: number; expose?: boolean },
): Error {
  return Object.assign(new Error(message), fields);
}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({}));
  app.router
    .get('/jwt', () => {
      throw statusError('jwt malformed: token 8f3a', { status: 401 });
    })
    .get('/exposed', () => {
      throw statusError('quota exceeded', { status: 429, expose: true });
    })
    .get('/upstream', () => {
      throw statusError('upstream db-7 refused', { statusCode: 503 });
    })
    .get('/odd-status', () => {
      throw statusError('weird', { status: 200 });
    })
    .get('/cached', (ctx) => {
      ctx.res.set({ 'Cache-Control': 'public, max-age=86400', ETag: '"v1"' });
      throw new Error('after the headers were set');
    });
});

test('an error with a 4xx status keeps it and shows only the status name', async () => {
  const res = await request(listenerOf(app)).get('/jwt');
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ error: 'unauthorized' });
});

test('an error with a 4xx status that exposes its message shows it', async () => {
  const res = await request(listenerOf(app)).get('/exposed');
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'quota exceeded' });
});

test('an error with a 5xx statusCode keeps the status and hides the message', async () => {
  const res = await request(listenerOf(app)).get('/upstream');
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: 'internal server error' });
});

test('an error whose status is not an error status is a 500', async () => {
  const res = await request(listenerOf(app)).get('/odd-status');
  expect(res.status).toBe(500);
  expect(res.body).toEqual({ error: 'internal server error' });
});

test('an error answer is never cached and drops the headers of the answer it replaced', async () => {
  const res = await request(listenerOf(app)).get('/cached');
  expect(res.status).toBe(500);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers.etag).not.toBe('"v1"');
});
