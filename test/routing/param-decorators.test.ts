import { IsInt, IsString, Min } from 'class-validator';
import request from 'supertest';
import { Body, Context, Controller, Ctx, Form, Get, Param, Post, Query, type Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';

class CreateOrder {
  @IsString() item!: string;
  @IsInt() @Min(1) quantity!: number;
}

const storedOrders: unknown[] = [];

@Controller('orders')
class OrderController {
  @Get() index(@Query('page', '1') page: string, @Query('sort') sort: string | undefined) {
    return { page, sort: sort ?? null };
  }
  @Get(':id') show(@Param('id') id: string) {
    return { id, type: typeof id };
  }
  @Post() store(@Body() input: CreateOrder) {
    storedOrders.push(input);
    return { isCreateOrder: input instanceof CreateOrder, input };
  }
  @Post('explicit') storeExplicit(@Body(CreateOrder) input: object) {
    return { isCreateOrder: input instanceof CreateOrder };
  }
  @Post('named') named(@Form('name') name: string | undefined, @Form('title', 'none') title: string) {
    return { name: name ?? null, title };
  }
  @Get(':id/context') context(@Param('id') id: string, @Ctx() ctx: Context) {
    return { id, isContext: ctx instanceof Context, path: ctx.req.path };
  }
  @Get(':id/mixed') mixed(@Param('id') id: string, ctx: Context) {
    return { id, isContext: ctx instanceof Context };
  }
}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [OrderController] }));
});

beforeEach(() => {
  storedOrders.length = 0;
});

describe('@Param', () => {
  test("@Param('id') receives the path parameter as a string", async () => {
    const res = await request(listenerOf(app)).get('/orders/42');
    expect(res.body).toEqual({ id: '42', type: 'string' });
  });
});

describe('@Query', () => {
  test("@Query('page', '1') gives '1' when page is absent", async () => {
    const res = await request(listenerOf(app)).get('/orders');
    expect(res.body).toEqual({ page: '1', sort: null });
  });

  test("@Query('page', '1') gives the value when page is present", async () => {
    const res = await request(listenerOf(app)).get('/orders?page=3&sort=name');
    expect(res.body).toEqual({ page: '3', sort: 'name' });
  });
});

describe('@Form', () => {
  test("@Form('name') reads a urlencoded field, and the fallback for a missing one", async () => {
    const res = await request(listenerOf(app)).post('/orders/named').type('form').send({ name: 'Ada' });
    expect(res.body).toEqual({ name: 'Ada', title: 'none' });
  });

  test("@Form('name') reads a multipart field", async () => {
    const res = await request(listenerOf(app))
      .post('/orders/named')
      .field('name', 'Ada')
      .field('title', 'Countess');
    expect(res.body).toEqual({ name: 'Ada', title: 'Countess' });
  });
});

describe('@Ctx and undecorated parameters', () => {
  test('@Ctx() receives the request context', async () => {
    const res = await request(listenerOf(app)).get('/orders/7/context');
    expect(res.body).toEqual({ id: '7', isContext: true, path: '/orders/7/context' });
  });

  test('an undecorated parameter next to decorated ones receives the context', async () => {
    const res = await request(listenerOf(app)).get('/orders/7/mixed');
    expect(res.body).toEqual({ id: '7', isContext: true });
  });
});

describe('@Body', () => {
  test('a valid body reaches the handler as an instance of the declared class', async () => {
    const res = await request(listenerOf(app)).post('/orders').send({ item: 'tea', quantity: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ isCreateOrder: true, input: { item: 'tea', quantity: 2 } });
  });

  test('@Body(Class) binds into the class given rather than the declared type', async () => {
    const res = await request(listenerOf(app)).post('/orders/explicit').send({ item: 'tea', quantity: 2 });
    expect(res.body).toEqual({ isCreateOrder: true });
  });

  test('an invalid body is 422 with the failing fields, and the handler does not run', async () => {
    const res = await request(listenerOf(app)).post('/orders').send({ item: 'tea', quantity: 0 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'validation failed',
      fields: { quantity: ['quantity must not be less than 1'] },
    });
    expect(storedOrders).toEqual([]);
  });
});
