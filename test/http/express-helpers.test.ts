import { IsInt, IsOptional, IsString } from 'class-validator';
import type { Request } from 'express';
import http from 'node:http';
import { Controller, Ctx, Get, Module, Post, Query, type Context } from 'keel';
import { createTestingApplication, type TestingApplication } from 'keel/testing';
import { moduleWith, useServedApp } from '../factories/app';

class ListQuery {
  @IsOptional() @IsString() tag?: string;
  @IsOptional() @IsInt() page?: number;
}

@Controller('probe')
class ProbeController {
  // Reads only through the context's own verbs: nothing here needs Express's helpers.
  @Get('query') query(@Ctx() ctx: Context) {
    return {
      tag: ctx.query('tag', 'none'),
      odd: ctx.query('a[b]', 'none'),
      name: ctx.query('na me', 'none'),
    };
  }
  @Get('bound') bound(@Query() query: ListQuery) {
    return { ...query };
  }
  @Get('helpers') helpers(@Ctx() ctx: Context) {
    return {
      asked: ctx.req.get('x-asked'),
      accepts: ctx.req.accepts(['html', 'json']),
      app: 'app' in ctx.req,
    };
  }
  @Get('go') go(@Ctx() ctx: Context) {
    ctx.redirect(303, '/probe/query');
  }
  @Get('raw') raw(@Ctx() ctx: Context) {
    return ctx.req.query;
  }
  @Get('tenant') tenant(@Ctx() ctx: Context) {
    return { tenant: (ctx.req as unknown as TenantRequest).tenant() };
  }
}

interface TenantRequest {
  tenant(): string;
}

@Controller('echo')
class EchoController {
  @Post() echo(@Ctx() ctx: Context) {
    return { name: ctx.form('name', 'none'), body: ctx.req.body as unknown };
  }
}

@Module({ controllers: [ProbeController, EchoController] })
class InjectedModule {}

const QUERY = '?tag=a&tag=b&a%5Bb%5D=1&na%20me=x%2By';
const BOUND = '?tag=a&page=2';

// A fragment as a client may send it (fetch would drop it before sending).
function readWithFragment(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(JSON.parse(body)));
      })
      .on('error', reject);
  });
}

async function read(url: string): Promise<[number, unknown]> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  return [res.status, await res.json()];
}

// keel loads Express only when something needs its helpers (`test/package/deferred-loads.test.ts`
// shows which loads happen when): each application here starts without them.
describe("Express's helpers, loaded when first needed", () => {
  describe('an application that has not loaded Express', () => {
    const served = useServedApp(moduleWith({ controllers: [ProbeController] }));

    test("reads the query as Express's default parser does, before Express loads and after", async () => {
      const { url } = served();
      const before = [await read(`${url}/probe/query${QUERY}`), await read(`${url}/probe/bound${BOUND}`)];
      const fragment = await readWithFragment(`${url}/probe/query?tag=a#top`);
      expect(fragment).toEqual({ tag: 'a', odd: 'none', name: 'none' });
      expect(before).toEqual([
        [200, { tag: 'a', odd: '1', name: 'x+y' }],
        [200, { tag: 'a', page: 2 }],
      ]);
      // The first read of `ctx.req` loads Express: its own `req.query` agrees.
      expect(await read(`${url}/probe/raw${QUERY}`)).toEqual([
        200,
        { tag: ['a', 'b'], 'a[b]': '1', 'na me': 'x+y' },
      ]);
      const after = [await read(`${url}/probe/query${QUERY}`), await read(`${url}/probe/bound${BOUND}`)];
      expect(after).toEqual(before);
      expect(await readWithFragment(`${url}/probe/query?tag=a#top`)).toEqual(fragment);
    });
  });

  describe('an application whose first request reads ctx.req', () => {
    const served = useServedApp(moduleWith({ controllers: [ProbeController] }));

    test("gives that very request Express's helpers, and a redirect its answer", async () => {
      const { url } = served();
      const res = await fetch(`${url}/probe/helpers`, {
        headers: { 'x-asked': 'yes', accept: 'application/json' },
      });
      expect(await res.json()).toEqual({ asked: 'yes', accepts: 'json', app: true });
      const redirect = await fetch(`${url}/probe/go`, { redirect: 'manual' });
      expect([redirect.status, redirect.headers.get('location')]).toEqual([303, '/probe/query']);
    });
  });

  describe("an application that changed Express's query parser", () => {
    const served = useServedApp(moduleWith({ controllers: [ProbeController] }), {}, (app) => {
      app.express.set('query parser', 'extended');
      // Express's way to add a helper to every request: its application's request prototype.
      (app.express.request as unknown as TenantRequest).tenant = function (this: Request) {
        return this.get('x-tenant') ?? 'none';
      };
    });

    test('reads the query with that parser, from the first request', async () => {
      const { url } = served();
      expect(await read(`${url}/probe/query${QUERY}`)).toEqual([200, { tag: 'a', odd: 'none', name: 'x+y' }]);
      expect(await read(`${url}/probe/raw${QUERY}`)).toEqual([
        200,
        { tag: ['a', 'b'], a: { b: '1' }, 'na me': 'x+y' },
      ]);
    });

    test('gives every request what the application added to its request prototype', async () => {
      const { url } = served();
      const res = await fetch(`${url}/probe/tenant`, { headers: { 'x-tenant': 'acme' } });
      expect(await res.json()).toEqual({ tenant: 'acme' });
    });
  });
});

// Express's own handling (phase 1) would give each request its application's request prototype:
// an in-process request would lose the methods of its class, and its answer with them.
describe('in-process requests to an application with middleware on app.express', () => {
  let app: TestingApplication;

  beforeAll(async () => {
    app = await createTestingApplication(InjectedModule).boot({ logger: false });
    app.express.use((_req, res, next) => {
      res.setHeader('X-Phase', 'one');
      next();
    });
  });

  afterAll(() => app.close());

  test('keep their answers and their bodies', async () => {
    const got = await app.inject({ url: '/probe/query?tag=a#top' });
    expect([got.statusCode, got.headers['x-phase'], got.json()]).toEqual([
      200,
      'one',
      { tag: 'a', odd: 'none', name: 'none' },
    ]);
    const posted = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'pen' } });
    expect([posted.statusCode, posted.headers['x-phase'], posted.json()]).toEqual([
      201,
      'one',
      { name: 'pen', body: { name: 'pen' } },
    ]);
  });
});
