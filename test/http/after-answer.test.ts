import request from 'supertest';
import { HttpError, type Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';
import { eventually } from '../factories/eventually';
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
  const res = await request(listenerOf(app)).get('/answered-then-failed');
  expect(res.status).toBe(200);
  expect((res.body as { data: string }).data).toHaveLength(large.length);
  // The client may hold the whole answer before the handler's later throw has been handled.
  const failed = await eventually(
    () => log.entries().find((entry) => entry.msg === 'request failed after its answer was sent') ?? false,
    { within: 2_000 },
  );
  expect(failed.err?.message).toBe('audit failed');
});

test('an error answer is JSON even when the handler had set another content type', async () => {
  const res = await request(listenerOf(app)).get('/typed-then-failed');
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({ error: '<img src=x onerror=alert(1)>' });
});
