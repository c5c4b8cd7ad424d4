import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import {
  Controller,
  Get,
  Inject,
  Injectable,
  InjectionToken,
  Options,
  Post,
  type Application,
  type Context,
  type MiddlewareClass,
} from 'keel';
import { bootApp, moduleWith } from '../factories/app';

const GREETING = new InjectionToken<string>('GREETING');

@Injectable()
class GreetingHeader implements MiddlewareClass {
  constructor(@Inject(GREETING) private readonly greeting: string) {}
  use(_req: Request, res: Response, next: NextFunction) {
    res.setHeader('X-Greeting', this.greeting);
    next();
  }
}

@Controller('items')
class ItemController {
  @Get(':id') show(ctx: Context) {
    ctx.header('X-Item', ctx.param('id'));
    return { id: ctx.param('id') };
  }
  @Post() store(ctx: Context) {
    return { method: ctx.req.method, name: ctx.form('name', '') };
  }
  @Options('special') special(ctx: Context) {
    ctx.json(200, { special: true });
  }
}

describe("over real HTTP to keel's own server", () => {
  let app: Application;
  let url: string;
  const seenByMiddleware: { method: string; body: unknown }[] = [];

  beforeAll(async () => {
    app = await bootApp(moduleWith({ controllers: [ItemController], providers: [] }));
    app.use((req: Request, _res: Response, next: NextFunction) => {
      seenByMiddleware.push({ method: req.method, body: req.body as unknown });
      next();
    });
    app.router.get('/boom', () => {
      throw new Error('handler secret');
    });
    ({ url } = await app.listen(0, '127.0.0.1'));
  });

  afterAll(() => app.close());

  test('HEAD on a GET route answers with the headers of GET and no body', async () => {
    const get = await request(url).get('/items/7');
    const head = await request(url).head('/items/7');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['x-item']).toBe('7');
    expect(head.text).toBeUndefined();
  });

  test('OPTIONS on a known path without a route of its own is 204 with Allow', async () => {
    const res = await request(url).options('/items');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('POST');
    expect(res.text).toBe('');
  });

  test('OPTIONS with a route of its own reaches it', async () => {
    const res = await request(url).options('/items/special');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ special: true });
  });

  test('OPTIONS on an unknown path is 404', async () => {
    const res = await request(url).options('/nowhere');
    expect(res.status).toBe(404);
  });

  test('app.use middleware sees the parsed body and the method after _method', async () => {
    seenByMiddleware.length = 0;
    const res = await request(url).post('/items').type('form').send({ _method: 'PUT', name: 'ada' });
    // The route table has no PUT /items: the middleware ran, then routing answered 405.
    expect(res.status).toBe(405);
    expect(seenByMiddleware).toEqual([{ method: 'PUT', body: { _method: 'PUT', name: 'ada' } }]);
  });

  test('app.use middleware runs for requests that reach no route', async () => {
    seenByMiddleware.length = 0;
    await request(url).get('/nowhere');
    expect(seenByMiddleware).toEqual([{ method: 'GET', body: undefined }]);
  });

  test('a middleware class given to app.use is built through DI', async () => {
    const withClass = await bootApp(
      moduleWith({
        controllers: [ItemController],
        providers: [{ provide: GREETING, useValue: 'hello' }] as never,
      }),
    );
    withClass.use(GreetingHeader);
    const { url: classUrl } = await withClass.listen(0, '127.0.0.1');
    try {
      const res = await request(classUrl).get('/items/1');
      expect(res.headers['x-greeting']).toBe('hello');
    } finally {
      await withClass.close();
    }
  });

  test('middleware added to app.express after the first request runs on the next', async () => {
    expect((await request(url).get('/items/1')).headers['x-raw']).toBeUndefined();
    app.express.use((_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('X-Raw', 'yes');
      next();
    });
    const res = await request(url).get('/items/1');
    expect(res.headers['x-raw']).toBe('yes');
    expect(res.body).toEqual({ id: '1' });
  });

  test('routes added after listen() answer, and 404/405 still come after every route', async () => {
    expect((await request(url).get('/late')).status).toBe(404);
    app.router.get('/late', () => ({ late: true }));
    expect((await request(url).get('/late')).body).toEqual({ late: true });
    const res = await request(url).post('/late');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  test("ctx.req and ctx.res carry Express helpers on keel's own server", async () => {
    app.router.get('/helpers', (ctx) => {
      ctx.res.cookie('seen', ctx.req.get('x-probe') ?? 'none');
      ctx.res.status(202).json({ host: ctx.req.hostname, xhr: ctx.req.xhr });
    });
    const res = await request(url).get('/helpers').set('X-Probe', 'abc');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ host: '127.0.0.1', xhr: false });
    expect(res.headers['set-cookie']).toEqual(['seen=abc; Path=/']);
  });
});

describe('errors from every phase take one way: app.use error middleware, then the responder', () => {
  let app: Application;
  let url: string;
  const seen: string[] = [];

  beforeAll(async () => {
    app = await bootApp(moduleWith({ controllers: [ItemController] }));
    app.use((req: Request, _res: Response, next: NextFunction) => {
      if (req.path === '/from-middleware') throw new Error('middleware secret');
      next();
    });
    app.router.get('/from-handler', () => {
      throw new Error('handler secret');
    });
    app.use((error: Error, _req: Request, _res: Response, next: NextFunction) => {
      seen.push(error.message);
      next(error);
    });
    ({ url } = await app.listen(0, '127.0.0.1'));
  });

  afterAll(() => app.close());

  test.each([
    ['/from-handler', 'handler secret'],
    ['/from-middleware', 'middleware secret'],
  ])('a 500 from %s reaches the error middleware, then the responder', async (path, message) => {
    seen.length = 0;
    const res = await request(url).get(path);
    expect(seen).toEqual([message]);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal server error' });
  });

  test('an error from app.express middleware reaches the error middleware too', async () => {
    app.express.use('/from-raw', (_req: Request, _res: Response, next: NextFunction) => {
      next(new Error('raw secret'));
    });
    seen.length = 0;
    const res = await request(url).get('/from-raw');
    expect(seen).toEqual(['raw secret']);
    expect(res.status).toBe(500);
  });

  test('a 404 reaches the error middleware, which may answer it', async () => {
    app.use((error: { status?: number }, _req: Request, res: Response, next: NextFunction) => {
      if (error.status !== 404) return next(error);
      res.status(404).type('text').send('custom not found');
    });
    const res = await request(url).get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.text).toBe('custom not found');
  });
});

test('an application with 10,000 routes boots and dispatches static and parametric paths', async () => {
  const app = await bootApp(moduleWith({}));
  for (let i = 0; i < 2_500; i++) {
    app.router
      .get(`/r${i}`, () => ({ list: i }))
      .get(`/r${i}/:id`, (ctx) => ({ item: i, id: ctx.param('id') }))
      .post(`/r${i}`, () => ({ stored: i }))
      .get(`/r${i}/:id/parts/:part`, (ctx) => ({ part: ctx.param('part') }));
  }
  expect(app.router.routes()).toHaveLength(10_000);
  const { url } = await app.listen(0, '127.0.0.1');
  try {
    expect((await request(url).get('/r2499')).body).toEqual({ list: 2499 });
    expect((await request(url).get('/r1234/77')).body).toEqual({ item: 1234, id: '77' });
    expect((await request(url).get('/r7/5/parts/x')).body).toEqual({ part: 'x' });
    expect((await request(url).delete('/r7')).status).toBe(405);
    expect((await request(url).get('/r2500')).status).toBe(404);
  } finally {
    await app.close();
  }
});
