import request from 'supertest';
import { Controller, Get, HttpError, type Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';
import { ERROR_LEVEL, captureLog, type LogCapture, type LogEntry } from '../factories/log';

@Controller('silent')
class SilentController {
  @Get() nothing(): void {}
}

let app: Application;
let log: LogCapture;

beforeEach(async () => {
  log = captureLog();
  app = await bootApp(moduleWith({ controllers: [SilentController] }), { logger: log.logger });
  app.router
    .get('/boom', () => {
      throw new Error('secret');
    })
    .get('/boom/async', async () => {
      await Promise.resolve();
      throw new Error('async secret');
    })
    .get('/unavailable', () => {
      throw new HttpError(503, 'db creds x');
    })
    .get('/taken', () => {
      throw new HttpError(409, 'taken');
    });
});

// The access line of a 5xx is at error level too (test/observability/access-log.test.ts): these
// are the lines that report the failure itself.
function failures(): LogEntry[] {
  return log.entries().filter((entry) => entry.level >= ERROR_LEVEL && entry.msg !== 'request');
}

test('a thrown Error is logged with its message, its stack and the request', async () => {
  await request(listenerOf(app)).get('/boom?page=2');
  expect(failures()).toHaveLength(1);
  const [entry] = failures();
  expect(entry).toMatchObject({ msg: 'request failed', method: 'GET', url: '/boom?page=2' });
  expect(entry?.err?.message).toBe('secret');
  expect(entry?.err?.stack).toMatch(/^Error: secret\n\s+at /);
  expect(entry?.err?.stack).toContain('logging.test.ts');
});

test("an async handler's rejection is logged with its message and stack", async () => {
  await request(listenerOf(app)).get('/boom/async');
  const [entry] = failures();
  expect(entry?.err?.message).toBe('async secret');
  expect(entry?.err?.stack).toMatch(/^Error: async secret\n\s+at /);
});

test('a hidden 5xx HttpError message still reaches the log', async () => {
  const res = await request(listenerOf(app)).get('/unavailable');
  expect(res.text).not.toContain('db creds x');
  const [entry] = failures();
  expect(entry?.err).toMatchObject({ type: 'HttpError', message: 'db creds x' });
});

test('a handler that returns without responding is logged as E_NO_RESPONSE naming the route', async () => {
  await request(listenerOf(app)).get('/silent');
  const [entry] = failures();
  expect(entry?.err?.code).toBe('E_NO_RESPONSE');
  expect(entry?.err?.message).toContain('SilentController.nothing (GET /silent)');
});

test('a 4xx answer is not logged as an error', async () => {
  const res = await request(listenerOf(app)).get('/taken');
  expect(res.status).toBe(409);
  expect(failures()).toEqual([]);
});

test('the log is the only place the stack goes', async () => {
  const res = await request(listenerOf(app)).get('/boom');
  expect(res.text).toBe('{"error":"internal server error"}');
  expect(log.text()).toContain('secret');
  expect(log.text()).toContain('logging.test.ts');
});
