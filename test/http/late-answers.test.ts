import request from 'supertest';
import type { Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';
import { captureLog, type LogCapture } from '../factories/log';

let app: Application;
let log: LogCapture;
let settleLateAnswer: () => void;
const lateAnswerSent = new Promise<boolean>((resolve) => {
  settleLateAnswer = () => resolve(true);
});

beforeAll(async () => {
  log = captureLog();
  app = await bootApp(moduleWith({}), { logger: log.logger });
  app.router
    .get('/headers', (ctx) => {
      ctx.res.set('X-Total', '3');
      return [1, 2, 3];
    })
    .post('/created', (ctx) => {
      ctx.res.status(201);
      return { id: 1 };
    })
    .get('/forgot-await', (ctx) => {
      // The answer comes after the handler returned: keel has already sent its 500 by then.
      setTimeout(() => {
        ctx.json(200, { late: true });
        settleLateAnswer();
      }, 20);
    })
    .get('/twice', (ctx) => {
      ctx.json(200, { first: true });
      ctx.error(500, 'second');
    })
    .get('/ok', () => ({ ok: true }));
});

describe('a handler that reads ctx.res and returns a value', () => {
  test('sends the value with the headers it set', async () => {
    const res = await request(listenerOf(app)).get('/headers');
    expect(res.status).toBe(200);
    expect(res.headers['x-total']).toBe('3');
    expect(res.body).toEqual([1, 2, 3]);
  });

  test('sends the value with the status it set', async () => {
    const res = await request(listenerOf(app)).post('/created');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 1 });
  });
});

describe('an answer after the request was answered', () => {
  test('is dropped and logged, and the process keeps serving', async () => {
    const res = await request(listenerOf(app)).get('/forgot-await');
    expect(res.status).toBe(500);
    await expect(lateAnswerSent).resolves.toBe(true);

    const codes = log.entries().map((entry) => entry.err?.code);
    expect(codes).toContain('E_NO_RESPONSE');
    expect(codes).toContain('E_ALREADY_RESPONDED');
    expect((await request(listenerOf(app)).get('/ok')).body).toEqual({ ok: true });
  });

  test('a second ctx write in the same handler keeps the first answer', async () => {
    const res = await request(listenerOf(app)).get('/twice');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ first: true });
    expect(log.text()).toContain('GET /twice');
  });
});
