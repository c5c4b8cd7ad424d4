import request from 'supertest';
import { HttpError, type Application } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { captureLog, type LogCapture } from '../factories/log';

let app: Application;
let log: LogCapture;
const large = 'x'.repeat(1 << 20);

beforeAll(async () => {
  log = captureLog();
  app = await bootApp(moduleWith({}), { logger: log.logger });
  app.router
    .get('/answered-then-failed', async (ctx) => {
      ctx.json(200, { data: large });
      await Promise.resolve();
      throw new Error('audit failed');
    })
    .get('/typed-then-failed', (ctx) => {
      ctx.res.type('html');
      throw new HttpError(404, '<img src=x onerror=alert(1)>');
    });
});

test('an error after a complete answer leaves that answer whole, and is logged', async () => {
  const res = await request(app.express).get('/answered-then-failed');
  expect(res.status).toBe(200);
  expect((res.body as { data: string }).data).toHaveLength(large.length);
  const failed = log.entries().find((entry) => entry.msg === 'request failed after its answer was sent');
  expect(failed?.err?.message).toBe('audit failed');
});

test('an error answer is JSON even when the handler had set another content type', async () => {
  const res = await request(app.express).get('/typed-then-failed');
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({ error: '<img src=x onerror=alert(1)>' });
});
