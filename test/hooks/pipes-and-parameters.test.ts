import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import {
  Controller,
  Get,
  HttpError,
  Injectable,
  Param,
  ParseBoolPipe,
  ParseIntPipe,
  ParseUUIDPipe,
  Query,
  createParamDecorator,
  type Application,
  type Context,
  type ParamTarget,
  type PipeTransform,
} from 'keel';
import { bootApp, moduleWith } from '../factories/app';

interface User {
  readonly name: string;
}

const CurrentUser = createParamDecorator((ctx) => (ctx.req as Request & { user?: User }).user);

@Injectable()
class SkuCatalogue {
  readonly known = new Set(['A-1', 'B-2']);
}

@Injectable()
class KnownSkuPipe implements PipeTransform<unknown, string> {
  constructor(private readonly catalogue: SkuCatalogue) {}
  transform(value: unknown, _ctx: Context, target: ParamTarget) {
    const sku = String(value).toUpperCase();
    if (!this.catalogue.known.has(sku))
      throw new HttpError(400, `${target.name} ${sku} is not in the catalogue`);
    return sku;
  }
}

class ListQuery {
  @IsOptional() @IsInt() @Min(1) page?: number;
  @IsOptional() @IsInt() @Min(1) @Max(100) size?: number;
  @IsOptional() @IsBoolean() archived?: boolean;
  @IsOptional() @IsIn(['asc', 'desc']) order?: string;
}

const reached: unknown[] = [];

@Controller('shop')
class ShopController {
  @Get('items/:id') item(@Param('id', ParseIntPipe) id: number) {
    reached.push(id);
    return { id, type: typeof id };
  }
  @Get('flags') flags(@Query('on', 'false', ParseBoolPipe) on: boolean) {
    return { on };
  }
  @Get('orders/:ref') order(@Param('ref', ParseUUIDPipe) ref: string) {
    return { ref };
  }
  @Get('skus/:sku') sku(@Param('sku', KnownSkuPipe) sku: string) {
    return { sku };
  }
  @Get('list') list(@Query() query: ListQuery) {
    reached.push(query);
    return { query, isListQuery: query instanceof ListQuery };
  }
  @Get('me') me(@CurrentUser() user: User | undefined) {
    return { user: user ?? null };
  }
}

describe('pipes and parameter decorators', () => {
  let app: Application;
  let url: string;

  beforeAll(async () => {
    app = await bootApp(moduleWith({ controllers: [ShopController], providers: [SkuCatalogue] }));
    app.use((req: Request, _res: Response, next: NextFunction) => {
      const name = req.get('x-user');
      if (name) (req as Request & { user?: User }).user = { name };
      next();
    });
    ({ url } = await app.listen(0, '127.0.0.1'));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    reached.length = 0;
  });

  test('ParseIntPipe hands the handler a number', async () => {
    const res = await request(url).get('/shop/items/42');
    expect(res.body).toEqual({ id: 42, type: 'number' });
  });

  test.each(['abc', '1.5', '1e3', '0x10', '99999999999999999999', '-'])(
    'ParseIntPipe refuses %s with 400 naming the parameter, and the handler never runs',
    async (id) => {
      const res = await request(url).get(`/shop/items/${id}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'path parameter "id" must be a whole number' });
      expect(reached).toEqual([]);
    },
  );

  test('ParseBoolPipe converts true and false and refuses the rest', async () => {
    expect((await request(url).get('/shop/flags?on=true')).body).toEqual({ on: true });
    expect((await request(url).get('/shop/flags')).body).toEqual({ on: false });
    const bad = await request(url).get('/shop/flags?on=yes');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'query parameter "on" must be true or false' });
  });

  test('ParseUUIDPipe lets a UUID through and refuses anything else', async () => {
    const ref = '0b6f1f2e-8a77-4c1e-9d55-2f7d8c0f3a11';
    expect((await request(url).get(`/shop/orders/${ref}`)).body).toEqual({ ref });
    expect((await request(url).get('/shop/orders/12')).status).toBe(400);
  });

  test('a pipe of your own gets its dependency through DI', async () => {
    expect((await request(url).get('/shop/skus/a-1')).body).toEqual({ sku: 'A-1' });
    const unknown = await request(url).get('/shop/skus/z-9');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'sku Z-9 is not in the catalogue' });
  });

  test('@Query() binds the query string into its class, numbers and booleans converted', async () => {
    const res = await request(url).get('/shop/list?page=2&size=50&archived=true&order=desc');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      query: { page: 2, size: 50, archived: true, order: 'desc' },
      isListQuery: true,
    });
  });

  test('@Query() answers 422 with fields for a bad query, before the handler', async () => {
    const res = await request(url).get('/shop/list?page=0&size=abc&order=sideways');
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('validation failed');
    expect(Object.keys(res.body.fields as object).sort()).toEqual(['order', 'page', 'size']);
    expect(reached).toEqual([]);
  });

  test('@CurrentUser() made with createParamDecorator reads what middleware put on the request', async () => {
    expect((await request(url).get('/shop/me').set('X-User', 'ada')).body).toEqual({ user: { name: 'ada' } });
    expect((await request(url).get('/shop/me')).body).toEqual({ user: null });
  });
});
