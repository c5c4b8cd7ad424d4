import type { ErrorRequestHandler, RequestHandler } from 'express';
import { Controller, Get, UseMiddleware, type Context } from 'keel';
import { moduleWith, useServedApp } from '../factories/app';
import { eventually } from '../factories/eventually';

/**
 * A request logger as pino-http and most others are written: once the answer is out, it reads the
 * status and the headers keel wrote. `lineFor(path)` waits for the line of a request.
 */
function recordingLogger(): { middleware: RequestHandler; lineFor: (path: string) => Promise<string> } {
  const lines: string[] = [];
  const middleware: RequestHandler = (req, res, next) => {
    res.on('finish', () => {
      const type = res.getHeader('content-type');
      const length = res.getHeader('content-length');
      lines.push(`${req.method} ${req.originalUrl} ${res.statusCode} ${String(type)} ${String(length)}`);
    });
    next();
  };
  // 'finish' may come a moment after the client has read the answer.
  const lineFor = (path: string): Promise<string> =>
    eventually(() => lines.find((candidate) => candidate.split(' ')[1] === path) ?? false, {
      within: 2000,
      every: 5,
      what: `the logged line of GET ${path}`,
    });
  return { middleware, lineFor };
}

/**
 * The line a logger should have written for an answer fetched from `url`, once the answer is checked
 * to be the kind the test names (its status and type).
 */
async function expectedLine(url: string, path: string, status: number, type: string): Promise<string> {
  const res = await fetch(`${url}${path}`);
  const body = Buffer.from(await res.arrayBuffer());
  expect([res.status, res.headers.get('content-type')]).toEqual([status, type]);
  return `GET ${path} ${res.status} ${type} ${body.length}`;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

const routeLogger = recordingLogger();

@Controller('items')
class ItemController {
  @Get(':id') show(ctx: Context) {
    if (ctx.param('id') === 'missing') return ctx.error(404, 'no such item');
    if (ctx.param('id') === 'broken') throw new Error('item store down');
    return { id: ctx.param('id') };
  }

  @Get(':id/page') page(ctx: Context) {
    ctx.html(200, 'pages/greeting.html', { name: ctx.param('id') });
  }
}

@Controller('logged')
@UseMiddleware(routeLogger.middleware)
class LoggedController {
  @Get(':id') show(ctx: Context) {
    ctx.json(200, { id: ctx.param('id') });
  }
}

/** A value one listener gives, once, for a test to await. */
function oneValue<T>(): { give: (value: T) => void; value: Promise<T> } {
  let give: (value: T) => void = () => undefined;
  const value = new Promise<T>((resolve) => (give = resolve));
  return { give, value };
}

const afterAnswer = oneValue<{ contentLength: unknown; contentType: unknown }>();

@Controller('own')
class OwnResponseController {
  @Get() show(ctx: Context) {
    const { res } = ctx;
    res.on('finish', () =>
      afterAnswer.give({
        contentLength: res.getHeader('content-length'),
        contentType: res.getHeader('content-type'),
      }),
    );
    return { own: true };
  }
}

const controllers = [ItemController, LoggedController, OwnResponseController];

describe('Express middleware given to app.use reads the headers of every answer once it is sent', () => {
  const logger = recordingLogger();
  const served = useServedApp(moduleWith({ controllers }), {}, (app) => app.use(logger.middleware));

  test.each([
    ['a returned value', '/items/7', 200, JSON_TYPE],
    ['ctx.error', '/items/missing', 404, JSON_TYPE],
    ['a thrown error', '/items/broken', 500, JSON_TYPE],
    ['ctx.html', '/items/7/page', 200, HTML_TYPE],
    ['a path with no route', '/nowhere', 404, JSON_TYPE],
  ])('%s', async (_answer, path, status, type) => {
    const expected = await expectedLine(served().url, path, status, type);
    await expect(logger.lineFor(path)).resolves.toBe(expected);
  });
});

describe('Express middleware on app.express reads the headers once the answer is sent', () => {
  const logger = recordingLogger();
  const served = useServedApp(moduleWith({ controllers }), {}, (app) => app.express.use(logger.middleware));

  test('of a returned value and of ctx.error', async () => {
    for (const [path, status] of [
      ['/items/7', 200],
      ['/items/missing', 404],
    ] as const) {
      const expected = await expectedLine(served().url, path, status, JSON_TYPE);
      await expect(logger.lineFor(path)).resolves.toBe(expected);
    }
  });
});

describe('route middleware and the handler itself read the headers once the answer is sent', () => {
  const served = useServedApp(moduleWith({ controllers }));

  test('@UseMiddleware on a controller', async () => {
    const expected = await expectedLine(served().url, '/logged/3', 200, JSON_TYPE);
    await expect(routeLogger.lineFor('/logged/3')).resolves.toBe(expected);
  });

  test('a handler that took ctx.res and still returned a value', async () => {
    const res = await fetch(`${served().url}/own`);
    const body = Buffer.from(await res.arrayBuffer());
    await expect(afterAnswer.value).resolves.toEqual({
      contentLength: body.length,
      contentType: JSON_TYPE,
    });
  });
});

describe('Express error middleware given to app.use reads the headers of the answer it passed on', () => {
  const afterError = oneValue<{ status: number; contentLength: unknown }>();
  const onError: ErrorRequestHandler = (error, _req, res, next) => {
    res.on('finish', () =>
      afterError.give({ status: res.statusCode, contentLength: res.getHeader('content-length') }),
    );
    next(error);
  };
  const served = useServedApp(moduleWith({ controllers }), {}, (app) => app.use(onError));

  test('a thrown error, answered by keel', async () => {
    const res = await fetch(`${served().url}/items/broken`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(500);
    await expect(afterError.value).resolves.toEqual({ status: 500, contentLength: body.length });
  });
});
