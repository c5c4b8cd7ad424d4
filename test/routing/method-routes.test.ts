import { All, Controller, Delete, Get, Patch, Post, Put, type Application, type Context } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { send, type Verb } from '../factories/routing';

@Controller('items')
class ItemController {
  @Get() list() {
    return { handler: 'list' };
  }
  @Get(':id') one(ctx: Context) {
    return { handler: 'one', id: ctx.param('id') };
  }
  @Post() add() {
    return { handler: 'add' };
  }
  @Put(':id') replace(ctx: Context) {
    return { handler: 'replace', id: ctx.param('id') };
  }
  @Patch(':id') amend(ctx: Context) {
    return { handler: 'amend', id: ctx.param('id') };
  }
  @Delete(':id') remove(ctx: Context) {
    return { handler: 'remove', id: ctx.param('id') };
  }
  @All('ping') ping(ctx: Context) {
    return { handler: 'ping', method: ctx.req.method };
  }
}

// The parameter route is declared first on purpose.
@Controller('reports')
class ReportController {
  @Get(':id') one(ctx: Context) {
    return { handler: 'one', id: ctx.param('id') };
  }
  @Get('list') list() {
    return { handler: 'list' };
  }
}

// A collection route between the parameter route and the static one.
@Controller('feeds')
class FeedController {
  @Get(':id') one(ctx: Context) {
    return { handler: 'one', id: ctx.param('id') };
  }
  @Get() all() {
    return { handler: 'all' };
  }
  @Get('latest') latest() {
    return { handler: 'latest' };
  }
}

@Controller()
class RootController {
  @Get('status') status() {
    return { handler: 'status' };
  }
}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [ItemController, ReportController, RootController] }));
});

describe('@Controller(prefix) with method decorators', () => {
  test.each<[Verb, string, object]>([
    ['GET', '/items', { handler: 'list' }],
    ['GET', '/items/3', { handler: 'one', id: '3' }],
    ['POST', '/items', { handler: 'add' }],
    ['PUT', '/items/3', { handler: 'replace', id: '3' }],
    ['PATCH', '/items/3', { handler: 'amend', id: '3' }],
    ['DELETE', '/items/3', { handler: 'remove', id: '3' }],
  ])('%s %s reaches the method decorated for it', async (method, path, answer) => {
    const res = await send(app, method, path);
    expect(res.status).toBe(method === 'POST' ? 201 : 200);
    expect(res.body).toEqual(answer);
  });

  test.each<Verb>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])('@All answers %s', async (method) => {
    const res = await send(app, method, '/items/ping');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ handler: 'ping', method });
  });

  test('registers the routes under the prefix, named after the class and method', () => {
    const items = app.router.routes().filter((route) => route.source.startsWith('ItemController.'));
    expect(items.map((route) => `${route.method} ${route.path} ${route.name}`).sort()).toEqual([
      'ALL /items/ping ItemController.ping',
      'DELETE /items/:id ItemController.remove',
      'GET /items ItemController.list',
      'GET /items/:id ItemController.one',
      'PATCH /items/:id ItemController.amend',
      'POST /items ItemController.add',
      'PUT /items/:id ItemController.replace',
    ]);
  });

  test('@Controller() without a prefix routes from the root', async () => {
    const res = await send(app, 'GET', '/status');
    expect(res.body).toEqual({ handler: 'status' });
  });
});

describe('declaration order', () => {
  test("@Get('list') declared after @Get(':id') still reaches list", async () => {
    const res = await send(app, 'GET', '/reports/list');
    expect(res.body).toEqual({ handler: 'list' });
  });

  test("@Get(':id') still reaches its handler for any other segment", async () => {
    const res = await send(app, 'GET', '/reports/9');
    expect(res.body).toEqual({ handler: 'one', id: '9' });
  });

  test("@Get('latest') declared after @Get(':id') and @Get() still reaches latest", async () => {
    const feeds = await bootApp(moduleWith({ controllers: [FeedController] }));
    const res = await send(feeds, 'GET', '/feeds/latest');
    expect(res.body).toEqual({ handler: 'latest' });
  });
});

describe('path parameters', () => {
  test('a parameter with malformed percent-encoding is a 400, not a server error', async () => {
    const res = await send(app, 'GET', '/items/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});
