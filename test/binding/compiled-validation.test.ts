import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Min,
  Validate,
  ValidateBy,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import request from 'supertest';
import { type Application, type Class, type Context } from 'keel';
import { bindBody, bindQuery } from '../../src/http/bind';
import { compiledBinding } from '../../src/binding/compiled-binding';
import { OrderInput } from '../../sample/src/orders/order-input';
import { Address, Order, OrderChanges, shape } from '../factories/validation-classes';
import { bootApp, listenerOf, moduleWith } from '../factories/app';

// Defaults from initialisers, a field without rules (whitelist removes it), and rules inherited and added.
class Defaults {
  @Min(1) @IsInt() size = 10;
  note = 'internal';
  @IsOptional() @IsString() tag?: string;
}

class Pet {
  @IsString() name!: string;
}

class Dog extends Pet {
  @Length(2, 5) declare name: string;
  @IsBoolean() isGood!: boolean;
}

// Rules class-validator runs and this compilation does not: an async rule, and a rule that
// answers with a promise without saying it is async.
@ValidatorConstraint({ name: 'isFree', async: true })
class IsFree implements ValidatorConstraintInterface {
  validate(value: unknown): Promise<boolean> {
    return Promise.resolve(value !== 'taken');
  }
  defaultMessage(): string {
    return '$value is taken';
  }
}

// An application's validator class under the name of one of class-validator's rules: its own rule runs.
@ValidatorConstraint({ name: 'isEmail' })
class IsContact implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length > 2;
  }
  defaultMessage(): string {
    return '$property must be a contact';
  }
}

class Contact {
  @Validate(IsContact) contact!: string;
}

class Signup {
  @IsString() @Validate(IsFree) handle!: string;
}

class Invite {
  @IsString()
  @ValidateBy({
    name: 'isKnown',
    validator: {
      validate: (value) => Promise.resolve(value === 'ada'),
      defaultMessage: () => 'unknown $property',
    },
  })
  guest!: string;
}

// What class-transformer's @Transform does, and a @ValidateNested with no @Type to name its class.
class Label {
  @Length(1, 5)
  @IsString()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  text!: string;
}

class Untyped {
  @ValidateNested() address!: Address;
}

class Listing {
  @IsOptional() @Min(1) @IsInt() page?: number;
  @IsOptional() @IsBoolean() open?: boolean;
  @IsOptional() @IsIn(['new', 'old']) sort?: string;
}

const CLASSES: Readonly<Record<string, Class<object>>> = {
  order: Order,
  changes: OrderChanges,
  sample: OrderInput,
  signup: Signup,
  invite: Invite,
  contact: Contact,
  defaults: Defaults,
  dog: Dog,
  label: Label,
  untyped: Untyped,
  listing: Listing,
};

async function answer(ctx: Context, mode: 'compiled' | 'interpreted'): Promise<unknown> {
  const type = CLASSES[ctx.param('kind')];
  if (!type) return ctx.error(404, 'no such class');
  const input = await bindBody(ctx.req, type, mode);
  if (!input.ok) throw input.error;
  return { isInstance: input.value instanceof type, value: shape(input.value) };
}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({}));
  app.router
    .post('/compiled/:kind', (ctx) => answer(ctx, 'compiled'))
    .post('/interpreted/:kind', (ctx) => answer(ctx, 'interpreted'))
    .get('/query/:mode/:kind', async (ctx) => {
      const mode = ctx.param('mode') === 'compiled' ? 'compiled' : 'interpreted';
      const input = await bindQuery(ctx.req, CLASSES[ctx.param('kind')] ?? Listing, mode);
      if (!input.ok) throw input.error;
      return { value: shape(input.value) };
    })
    .post('/bound/:kind', async (ctx) => {
      const input = await ctx.bind(CLASSES[ctx.param('kind')] ?? Order);
      if (!input.ok) throw input.error;
      return { value: shape(input.value) };
    });
});

afterAll(() => app.close());

const order = { item: 'tea', quantity: 2, email: 'ada@example.com', confirm: true };
const line = { sku: 'T-1', count: 1 };
const full = {
  ...order,
  price: 9.99,
  gift: true,
  delivery: 'post',
  size: 'large',
  coupon: 'SPRING',
  deliverBy: '2026-12-01T10:00:00Z',
  address: { city: 'Oslo', zip: '0150' },
  lines: [line, { sku: 'C-2', count: 99 }],
  tags: ['green', 'loose'],
  message: 'Happy birthday',
  lucky: 4,
};

type Send = (test: request.Test) => request.Test;
const json =
  (body: unknown): Send =>
  (test) =>
    test.send(body as object);
const raw =
  (text: string): Send =>
  (test) =>
    test.set('Content-Type', 'application/json').send(text);
const form =
  (text: string): Send =>
  (test) =>
    test.type('form').send(text);

// [what is sent, to which class, how, the status both paths must answer with]
const BODIES: readonly [string, string, Send, number][] = [
  ['a valid order', 'order', json(order), 200],
  ['a valid order with every optional field', 'order', json(full), 200],
  ['no item', 'order', json({ ...order, item: undefined }), 422],
  ['an empty item', 'order', json({ ...order, item: '' }), 422],
  ['an item past 80 characters', 'order', json({ ...order, item: 'x'.repeat(81) }), 422],
  ['a number for the item', 'order', json({ ...order, item: 5 }), 422],
  ['a string for the quantity in JSON', 'order', json({ ...order, quantity: '3' }), 422],
  ['a quantity under the minimum', 'order', json({ ...order, quantity: 0 }), 422],
  ['a quantity over the maximum', 'order', json({ ...order, quantity: 1001 }), 422],
  ['a fractional quantity', 'order', json({ ...order, quantity: 2.5 }), 422],
  ['a null quantity', 'order', json({ ...order, quantity: null }), 422],
  ['an invalid email', 'order', json({ ...order, email: 'ada@' }), 422],
  ['no email', 'order', json({ ...order, email: undefined }), 422],
  ['a price with three decimals', 'order', json({ ...order, price: 9.999 }), 422],
  ['a string price', 'order', json({ ...order, price: '9.99' }), 422],
  ['a string for a boolean', 'order', json({ ...order, gift: 'yes' }), 422],
  ['a value outside IsIn', 'order', json({ ...order, delivery: 'drone' }), 422],
  ['a value outside the enum', 'order', json({ ...order, size: 'medium' }), 422],
  ['a coupon too short', 'order', json({ ...order, coupon: 'a' }), 422],
  ['a number for a string with lengths', 'order', json({ ...order, coupon: 12 }), 422],
  ['a date that is no ISO 8601 string', 'order', json({ ...order, deliverBy: 'tomorrow' }), 422],
  ['a null optional object', 'order', json({ ...order, address: null }), 200],
  ['a string where a nested object is expected', 'order', json({ ...order, address: 'Oslo' }), 422],
  ['a nested object missing its field', 'order', json({ ...order, address: {} }), 422],
  ['a nested object with a bad field', 'order', json({ ...order, address: { city: 7, zip: 'abc' } }), 422],
  [
    'a nested object with extra fields',
    'order',
    json({ ...order, address: { city: 'Oslo', admin: true } }),
    200,
  ],
  [
    'an array where a nested object is expected',
    'order',
    json({ ...order, address: [{ city: 'Oslo' }, 'x'] }),
    422,
  ],
  ['an empty list under ArrayMinSize', 'order', json({ ...order, lines: [] }), 422],
  ['a list over ArrayMaxSize', 'order', json({ ...order, lines: [line, line, line, line] }), 422],
  [
    'list members with bad and missing fields',
    'order',
    json({ ...order, lines: [line, { count: 0 }, {}] }),
    422,
  ],
  ['a string where a list is expected', 'order', json({ ...order, lines: 'T-1' }), 422],
  ['a null list member', 'order', json({ ...order, lines: [null, line] }), 422],
  ['an object where a list is expected', 'order', json({ ...order, lines: line }), 422],
  ['nested lists', 'order', json({ ...order, lines: [[line, { sku: '' }]] }), 422],
  ['a list member of the wrong type under each', 'order', json({ ...order, tags: ['green', 2] }), 422],
  ['a single string under each', 'order', json({ ...order, tags: 'green' }), 200],
  ['fields the class does not declare', 'order', json({ ...order, isAdmin: true, role: 'root' }), 200],
  [
    '__proto__ and constructor keys',
    'order',
    raw(
      `{"item":"tea","quantity":2,"email":"ada@example.com","confirm":true,"__proto__":{"x":1},"constructor":{"prototype":{"x":1}},"toString":"x"}`,
    ),
    200,
  ],
  ['a JSON null body', 'order', raw('null'), 400],
  ['a JSON array body', 'order', json([order]), 422],
  ['a JSON string body', 'order', raw('"order"'), 400],
  ['a JSON number body', 'order', raw('42'), 400],
  ['no body at all', 'order', (test) => test, 422],
  ['a message required by ValidateIf', 'order', json({ ...order, gift: true }), 422],
  ['a message ValidateIf skips', 'order', json({ ...order, gift: false, message: 5 }), 200],
  ['an application rule broken, its message naming the value', 'order', json({ ...order, lucky: 3 }), 422],
  ['an IsDefined with its own message', 'order', json({ ...order, confirm: undefined }), 422],
  [
    'every field wrong at once',
    'order',
    json({ item: 1, quantity: 'x', email: null, lines: [{}], lucky: '2' }),
    422,
  ],
  [
    'a form with numbers and booleans as strings',
    'order',
    form('item=tea&quantity=3&email=ada%40example.com&confirm=on&price=9.5&gift=false'),
    200,
  ],
  [
    'a form number that is no number',
    'order',
    form('item=tea&quantity=three&email=ada%40example.com&confirm=true'),
    422,
  ],
  ['an empty form number', 'order', form('item=tea&quantity=&email=ada%40example.com&confirm=true'), 422],
  [
    'a form number in exponent notation',
    'order',
    form('item=tea&quantity=1e3&email=ada%40example.com&confirm=true'),
    422,
  ],
  [
    'a repeated form field',
    'order',
    form('item=tea&item=coffee&quantity=1&email=ada%40example.com&confirm=true'),
    422,
  ],
  [
    'a multipart form',
    'order',
    (test) =>
      test
        .field('item', 'tea')
        .field('quantity', '4')
        .field('email', 'ada@example.com')
        .field('confirm', 'yes'),
    200,
  ],
  ['a rule of the application named as one of class-validator’s', 'contact', json({ contact: 'ada' }), 200],
  ['that rule broken', 'contact', json({ contact: 'a' }), 422],
  ['nothing for a class with defaults', 'defaults', json({}), 200],
  ['a default overridden badly', 'defaults', json({ size: 0, note: 'sent' }), 422],
  [
    'a default overridden, a field without rules sent',
    'defaults',
    json({ size: 3, note: 'sent', tag: 'x' }),
    200,
  ],
  ['a subclass body breaking inherited and own rules', 'dog', json({ name: 'R', isGood: 'yes' }), 422],
  ['a valid subclass body', 'dog', json({ name: 'Rex', isGood: true }), 200],
  ['an empty change', 'changes', json({}), 200],
  ['a change that breaks a rule', 'changes', json({ quantity: 0 }), 422],
  ['a change to null', 'changes', json({ item: null, address: null }), 422],
  ['a change of a nested object', 'changes', json({ address: { city: '' } }), 422],
  ['a valid order of the sample', 'sample', json({ customer: 'Ada', product: 'Tea', quantity: 3 }), 200],
  ['a sample order without fields', 'sample', json({}), 422],
  [
    'a sample order with a NUL and too many',
    'sample',
    json({ customer: 'A\u0000a', product: 'x'.repeat(81), quantity: 5000 }),
    422,
  ],
  ['a sample order of the wrong types', 'sample', json({ customer: 1, product: [], quantity: '3' }), 422],
];

test('the table holds at least 40 bodies, valid and invalid', () => {
  expect(BODIES.length).toBeGreaterThanOrEqual(40);
  expect(BODIES.filter(([, , , status]) => status === 200).length).toBeGreaterThan(5);
});

test.each(['order', 'changes', 'sample', 'listing', 'defaults', 'dog', 'contact'])(
  'the %s class is compiled, not interpreted',
  (kind) => {
    expect(compiledBinding(CLASSES[kind] as Class)).toBeDefined();
  },
);

test.each(BODIES)(
  '%s: the compiled binding answers as class-validator does',
  async (_name, kind, send, status) => {
    const compiled = await send(request(listenerOf(app)).post(`/compiled/${kind}`));
    const interpreted = await send(request(listenerOf(app)).post(`/interpreted/${kind}`));
    expect(interpreted.status).toBe(status);
    expect({ status: compiled.status, body: compiled.body as unknown }).toEqual({
      status: interpreted.status,
      body: interpreted.body as unknown,
    });
    if (status === 200) expect(compiled.body).toMatchObject({ isInstance: true });
  },
);

test('after the whole table, each class is still compiled: no body sent it to class-validator', () => {
  for (const kind of ['order', 'changes', 'sample'])
    expect(compiledBinding(CLASSES[kind] as Class)).toBeDefined();
});

test('a failure lists every broken rule of a field in the order its decorators apply, in class-validator’s words', async () => {
  const res = await request(listenerOf(app))
    .post('/bound/order')
    .send({ ...order, quantity: '3', lucky: 3, lines: [{ sku: '' }] });
  expect(res.status).toBe(422);
  expect(res.body).toEqual({
    error: 'validation failed',
    fields: {
      quantity: [
        'quantity must be an integer number',
        'quantity must not be less than 1',
        'quantity must not be greater than 1000',
      ],
      'lines.0.sku': ['sku must be longer than or equal to 1 characters'],
      'lines.0.count': [
        'count must not be greater than 99',
        'count must not be less than 1',
        'count must be an integer number',
      ],
      lucky: ['lucky must be even, not 3'],
    },
  });
});

test.each([
  ['?page=2&open=true&sort=new', 200],
  ['', 200],
  ['?page=0', 422],
  ['?page=x&open=maybe&sort=up', 422],
  ['?page=1&page=2', 422],
  ['?page=3&admin=1', 200],
])('the query %p binds as class-validator binds it', async (query, status) => {
  const compiled = await request(listenerOf(app)).get(`/query/compiled/listing${query}`);
  const interpreted = await request(listenerOf(app)).get(`/query/interpreted/listing${query}`);
  expect(interpreted.status).toBe(status);
  expect({ status: compiled.status, body: compiled.body as unknown }).toEqual({
    status: interpreted.status,
    body: interpreted.body as unknown,
  });
});

describe('classes with rules the compilation leaves to class-validator', () => {
  test('@Transform keeps its class on class-transformer, which still applies it', async () => {
    expect(compiledBinding(Label)).toBeUndefined();
    const trimmed = await request(listenerOf(app)).post('/bound/label').send({ text: '  tea  ' });
    expect(trimmed.body).toEqual({ value: { $class: 'Label', $keys: ['text'], text: 'tea' } });
    const long = await request(listenerOf(app)).post('/bound/label').send({ text: ' oolong ' });
    expect(long.status).toBe(422);
  });

  test('@ValidateNested without @Type keeps its class on class-validator, which answers as before', async () => {
    expect(compiledBinding(Untyped)).toBeUndefined();
    const compiled = await request(listenerOf(app))
      .post('/compiled/untyped')
      .send({ address: { city: 'Oslo' } });
    const interpreted = await request(listenerOf(app))
      .post('/interpreted/untyped')
      .send({ address: { city: 'Oslo' } });
    expect(compiled.status).toBe(422);
    expect(compiled.body).toEqual(interpreted.body);
  });

  test('an async rule keeps its class on class-validator, which still validates it', async () => {
    expect(compiledBinding(Signup)).toBeUndefined();
    const taken = await request(listenerOf(app)).post('/bound/signup').send({ handle: 'taken' });
    expect(taken.status).toBe(422);
    expect(taken.body).toEqual({ error: 'validation failed', fields: { handle: ['taken is taken'] } });
    const free = await request(listenerOf(app)).post('/bound/signup').send({ handle: 'ada', extra: 1 });
    expect(free.body).toEqual({ value: { $class: 'Signup', $keys: ['handle'], handle: 'ada' } });
  });

  test('a rule that answers with a promise moves its class to class-validator at its first use', async () => {
    expect(compiledBinding(Invite)).toBeDefined();
    const unknown = await request(listenerOf(app)).post('/bound/invite').send({ guest: 'bob' });
    expect(unknown.body).toEqual({ error: 'validation failed', fields: { guest: ['unknown guest'] } });
    expect(compiledBinding(Invite)).toBeUndefined();
    const known = await request(listenerOf(app)).post('/bound/invite').send({ guest: 'ada' });
    expect(known.status).toBe(200);
  });
});
