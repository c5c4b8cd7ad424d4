import request from 'supertest';
import * as v from 'valibot';
import { z } from 'zod';
import { Body, Controller, Get, Param, Post, Query, type Application, type Context } from 'keel';
import { bootApp, listenerOf, moduleWith } from '../factories/app';
import { BODIES, order } from '../factories/order-bodies';
import { valibotOrder, zodOrder } from '../factories/order-schemas';
import { Order } from '../factories/validation-classes';

// Rows of the class-validator table that do not apply to a schema, and why.
const NOT_APPLICABLE = new Map([
  // class-validator's `each` takes a single value as a list of one; a schema's array does not.
  ['a single string under each', 'each'],
  // A form's strings become numbers and booleans by the class's declared types; a schema coerces itself.
  ['a form with numbers and booleans as strings', 'form'],
  ['a form number that is no number', 'form'],
  ['an empty form number', 'form'],
  ['a form number in exponent notation', 'form'],
  ['a repeated form field', 'form'],
  ['a multipart form', 'form'],
  // class-validator validates an array under @ValidateNested (no `each`) member by member.
  ['an array where a nested object is expected', 'nested array'],
  ['nested lists', 'nested array'],
]);

// Where a schema names a field more precisely than class-validator does: the list member itself;
// and valibot's `object` takes an array's missing keys as missing fields.
const SCHEMA_FIELDS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  zod: { 'a list member of the wrong type under each': ['tags.1'] },
  valibot: {
    'a list member of the wrong type under each': ['tags.1'],
    'a JSON array body': ['confirm', 'email', 'item', 'quantity'],
  },
};

const line = z.object({ sku: z.string(), quantity: z.number().int().min(1) });
const cart = z.object({ items: z.array(line).min(1) });
const listing = z.object({
  page: z.coerce.number().int().min(1).default(1),
  sort: z.enum(['new', 'old']).default('new'),
});
const slowName = z.object({ name: z.string().refine(async (name) => name !== 'taken', 'is taken') });

@Controller('/shop')
class ShopController {
  @Post('class') byClass(@Body() input: Order) {
    return { value: input };
  }
  @Post('zod') byZod(@Body(zodOrder) input: z.output<typeof zodOrder>) {
    return { value: input };
  }
  @Post('valibot') byValibot(@Body(valibotOrder) input: unknown) {
    return { value: input };
  }
  @Post('cart') byCart(@Body(cart) input: z.output<typeof cart>) {
    return { value: input };
  }
  @Post('unstated') unstated(@Body(v.object({ n: v.number() })) input: unknown) {
    return { value: input };
  }
  @Post('async') byAsync(@Body(slowName) input: z.output<typeof slowName>) {
    return { value: input };
  }
  @Get('list') list(@Query(listing) query: z.output<typeof listing>) {
    return { value: query };
  }
  @Get('items/:id') show(@Param('id', z.coerce.number().int().positive()) id: number) {
    return { value: id, type: typeof id };
  }
}

let app: Application;
let server: ReturnType<typeof request>;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [ShopController] }));
  app.router.post('/bound', async (ctx: Context) => {
    const input = await ctx.bind(cart);
    if (!input.ok) throw input.error;
    return { items: input.value.items.length };
  });
  server = request(listenerOf(app));
});

afterAll(() => app.close());

const rows = BODIES.filter(([name, kind]) => kind === 'order' && !NOT_APPLICABLE.has(name));

interface Answer {
  readonly status: number;
  readonly fields: string[];
}

// class-validator lists every rule a field breaks; a schema's answer has one message per field path.
function answerOf(res: request.Response, isSchema = false): Answer {
  const fields = (res.body as { fields?: Record<string, string[]> }).fields ?? {};
  if (isSchema) for (const messages of Object.values(fields)) expect(messages).toHaveLength(1);
  return { status: res.status, fields: Object.keys(fields).sort() };
}

test('the table holds the valid and invalid bodies the class tests send to Order', () => {
  expect(rows.length).toBeGreaterThanOrEqual(35);
  expect(rows.filter(([, , , status]) => status === 201).length).toBeGreaterThan(3);
});

describe.each(['zod', 'valibot'])('%s', (library) => {
  test.each(rows)('%s: the same status and field paths as the class', async (name, _kind, send, status) => {
    const byClass = answerOf(await send(server.post('/shop/class')));
    const bySchema = answerOf(await send(server.post(`/shop/${library}`)), true);
    expect(byClass.status).toBe(status);
    const fields = SCHEMA_FIELDS[library]?.[name];
    expect(bySchema).toEqual(fields ? { ...byClass, fields } : byClass);
  });
});

test('a valid body reaches the handler as the schema outputs it, undeclared fields dropped', async () => {
  const res = await server.post('/shop/zod').send({ ...order, isAdmin: true });
  expect(res.status).toBe(201);
  expect(res.body).toEqual({ value: order });
});

test('an invalid body is 422 with one message per field path, into arrays', async () => {
  const res = await server
    .post('/shop/cart')
    .send({ items: [{ sku: 'a', quantity: 1 }, { sku: 'b', quantity: 0 }, { quantity: 'x' }] });
  expect(res.status).toBe(422);
  expect(res.body).toEqual({
    error: 'validation failed',
    fields: {
      'items.1.quantity': [expect.any(String)],
      'items.2.sku': [expect.any(String)],
      'items.2.quantity': [expect.any(String)],
    },
  });
});

test('a schema that answers with a promise is awaited', async () => {
  expect((await server.post('/shop/async').send({ name: 'ada' })).body).toEqual({ value: { name: 'ada' } });
  const taken = await server.post('/shop/async').send({ name: 'taken' });
  expect(taken.status).toBe(422);
  expect(taken.body.fields).toEqual({ name: ['is taken'] });
});

test('a query schema coerces strings and fills defaults before the handler', async () => {
  expect((await server.get('/shop/list?page=3')).body).toEqual({ value: { page: 3, sort: 'new' } });
  expect((await server.get('/shop/list')).body).toEqual({ value: { page: 1, sort: 'new' } });
  const bad = await server.get('/shop/list?page=0&sort=up');
  expect(bad.status).toBe(422);
  expect(Object.keys(bad.body.fields).sort()).toEqual(['page', 'sort']);
});

test('a path parameter schema gives its output, and a refusal names the parameter', async () => {
  expect((await server.get('/shop/items/42')).body).toEqual({ value: 42, type: 'number' });
  const bad = await server.get('/shop/items/abc');
  expect(bad.status).toBe(422);
  expect(Object.keys(bad.body.fields)).toEqual(['id']);
});

test('ctx.bind takes a schema, and a body that is no object is refused under "body"', async () => {
  expect((await server.post('/bound').send({ items: [{ sku: 'a', quantity: 2 }] })).body).toEqual({
    items: 1,
  });
  const bad = await server.post('/bound').send([1]);
  expect(bad.status).toBe(422);
  expect(Object.keys(bad.body.fields)).toEqual(['body']);
});
