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
import { BODIES, order } from '../factories/order-bodies';

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

test('the table holds at least 40 bodies, valid and invalid', () => {
  expect(BODIES.length).toBeGreaterThanOrEqual(40);
  expect(BODIES.filter(([, , , status]) => status === 201).length).toBeGreaterThan(5);
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
    expect(known.status).toBe(201);
  });
});
