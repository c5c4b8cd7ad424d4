import { Controller, Get, type Application, type Context } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { send } from '../factories/routing';

@Controller('results')
class ResultController {
  @Get('value') value() {
    return { sent: 'as json' };
  }
  @Get('async-value') async asyncValue() {
    await Promise.resolve();
    return ['a', 'b'];
  }
  @Get('nothing') nothing(): void {}
  @Get('async-nothing') async asyncNothing(): Promise<void> {
    await Promise.resolve();
  }
}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [ResultController] }));
  app.router
    .get('/results/null', () => null)
    .get('/results/false', () => false)
    .get('/results/responded', (ctx: Context) => {
      ctx.json(201, { by: 'ctx.json' });
      return { ignored: true };
    })
    .get('/results/raw', (ctx: Context) => {
      ctx.res.status(202).type('text').send('raw');
    })
    .get('/results/raw-later', (ctx: Context) => {
      const res = ctx.res;
      setTimeout(() => res.status(200).type('text').send('later'), 10);
    });
});

describe('a returned value', () => {
  test('an object returned by a sync handler is sent as JSON 200', async () => {
    const res = await send(app, 'GET', '/results/value');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ sent: 'as json' });
  });

  test('a value resolved by an async handler is sent as JSON 200', async () => {
    const res = await send(app, 'GET', '/results/async-value');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(['a', 'b']);
  });

  test.each(['null', 'false'])('%s is a value: it is sent as JSON 200', async (value) => {
    const res = await send(app, 'GET', `/results/${value}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(value);
  });

  test('a handler that responded through ctx keeps its answer; the returned value is not sent', async () => {
    const res = await send(app, 'GET', '/results/responded');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ by: 'ctx.json' });
  });
});

describe('no response and no value', () => {
  test.each([
    ['a sync handler returning undefined', '/results/nothing'],
    ['an async handler resolving undefined', '/results/async-nothing'],
  ])('%s gets 500 {"error":"internal server error"}', async (_handler, path) => {
    const res = await send(app, 'GET', path);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal server error' });
  });

  test('a handler that answered through ctx.res is not reported', async () => {
    const res = await send(app, 'GET', '/results/raw');
    expect(res.status).toBe(202);
    expect(res.text).toBe('raw');
  });

  test('a handler that took ctx.res and answers after returning is not reported', async () => {
    const res = await send(app, 'GET', '/results/raw-later');
    expect(res.status).toBe(200);
    expect(res.text).toBe('later');
  });
});
