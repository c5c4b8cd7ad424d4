import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsString, Min, ValidateNested } from 'class-validator';
import request from 'supertest';
import { Body, Controller, Post, type Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';

class Signup {
  @IsEmail() email!: string;
  @IsInt() @Min(1) seats!: number;
}

class Address {
  @IsString() city!: string;
}

class Profile {
  @IsString() name!: string;
  @ValidateNested() @Type(() => Address) address!: Address;
}

@Controller('decorated')
class DecoratedSignups {
  @Post() store(@Body() input: Signup) {
    return { isSignup: input instanceof Signup, email: input.email, seats: input.seats };
  }
}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [DecoratedSignups] }));
  app.router
    .post('/signups', async (ctx) => {
      const input = await ctx.bind(Signup);
      if (!input.ok) throw input.error;
      ctx.json(201, { isSignup: input.value instanceof Signup, value: input.value });
    })
    .post('/signups/report', async (ctx) => {
      const input = await ctx.bind(Signup);
      ctx.json(200, input.ok ? { ok: true } : { ok: false, status: input.status, errors: input.errors });
    })
    .post('/signups/inspect', async (ctx) => {
      const input = await ctx.bind(Signup);
      if (!input.ok) throw input.error;
      ctx.json(200, {
        hasClassPrototype: Object.getPrototypeOf(input.value) === Signup.prototype,
        hasClassConstructor: input.value.constructor === Signup,
        keys: Object.keys(input.value),
      });
    })
    .post('/profiles', async (ctx) => {
      const input = await ctx.bind(Profile);
      if (!input.ok) throw input.error;
      const profile = input.value;
      ctx.json(200, {
        hasClassPrototype: Object.getPrototypeOf(profile) === Profile.prototype,
        hasClassConstructor: profile.constructor === Profile,
        keys: Object.keys(profile),
        addressHasClassPrototype: Object.getPrototypeOf(profile.address) === Address.prototype,
        addressHasClassConstructor: profile.address.constructor === Address,
        addressKeys: Object.keys(profile.address),
      });
    });
});

describe('ctx.bind with a JSON body', () => {
  test('gives { ok: true, value } with an instance of the class', async () => {
    const res = await request(listenerOf(app)).post('/signups').send({ email: 'ada@example.com', seats: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ isSignup: true, value: { email: 'ada@example.com', seats: 2 } });
  });

  test('answers 422 with the exact failing fields', async () => {
    const res = await request(listenerOf(app)).post('/signups').send({ email: 'not-an-email', seats: 2 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'validation failed', fields: { email: ['email must be an email'] } });
  });

  test('does not convert a JSON string to a number', async () => {
    const res = await request(listenerOf(app))
      .post('/signups')
      .send({ email: 'ada@example.com', seats: '3' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'validation failed',
      fields: { seats: ['seats must not be less than 1', 'seats must be an integer number'] },
    });
  });

  test('answers 422 for a JSON array body', async () => {
    const res = await request(listenerOf(app))
      .post('/signups')
      .send([{ email: 'ada@example.com', seats: 2 }]);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'validation failed', fields: { body: ['must be an object'] } });
  });

  test('strips keys the class does not declare', async () => {
    const res = await request(listenerOf(app))
      .post('/signups')
      .send({ email: 'ada@example.com', seats: 2, isAdmin: true });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ isSignup: true, value: { email: 'ada@example.com', seats: 2 } });
  });
});

describe('ctx.bind with a form body', () => {
  test('converts a urlencoded numeric field so it validates as an integer', async () => {
    const res = await request(listenerOf(app))
      .post('/signups')
      .type('form')
      .send({ email: 'ada@example.com', seats: '3' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ isSignup: true, value: { email: 'ada@example.com', seats: 3 } });
  });

  test('converts a multipart numeric field so it validates as an integer', async () => {
    const res = await request(listenerOf(app))
      .post('/signups')
      .field('email', 'ada@example.com')
      .field('seats', '3');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ isSignup: true, value: { email: 'ada@example.com', seats: 3 } });
  });

  test('answers 422 for a form field that is not a number', async () => {
    const res = await request(listenerOf(app))
      .post('/signups')
      .type('form')
      .send({ email: 'ada@example.com', seats: 'three' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'validation failed',
      fields: { seats: ['seats must not be less than 1', 'seats must be an integer number'] },
    });
  });
});

describe('ctx.bind with an unsupported or missing body', () => {
  test('answers 415 for text/plain with a message naming the type and what to send', async () => {
    const res = await request(listenerOf(app))
      .post('/signups')
      .type('text/plain')
      .send('email=ada@example.com');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'unsupported content type "text/plain": send JSON or a form' });
  });

  test('answers 422 naming the required fields for a POST with no body', async () => {
    // What clients send for an empty POST: Content-Length: 0 and no Content-Type.
    const res = await request(listenerOf(app)).post('/signups');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'validation failed',
      fields: {
        email: ['email must be an email'],
        seats: ['seats must not be less than 1', 'seats must be an integer number'],
      },
    });
  });
});

describe('ctx.bind against prototype pollution', () => {
  const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

  afterEach(() => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test.each([
    [
      'at the top level',
      '{"name":"Ada","address":{"city":"Oslo"},' +
        '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
    ],
    [
      'in a nested object',
      '{"name":"Ada","address":{"city":"Oslo","extra":1,' +
        '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}',
    ],
  ])('__proto__ and constructor keys %s pollute nothing and are stripped', async (_where, json) => {
    const res = await request(listenerOf(app))
      .post('/profiles')
      .set('Content-Type', 'application/json')
      .send(json);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      hasClassPrototype: true,
      hasClassConstructor: true,
      keys: ['name', 'address'],
      addressHasClassPrototype: true,
      addressHasClassConstructor: true,
      addressKeys: ['city'],
    });
  });

  test.each([
    [
      'a urlencoded form',
      (r: request.Test) =>
        r
          .type('form')
          .send('email=ada%40example.com&seats=2&__proto__=x&__proto__[polluted]=yes&constructor=x'),
    ],
    [
      'a multipart form',
      (r: request.Test) =>
        r
          .field('email', 'ada@example.com')
          .field('seats', '2')
          .field('__proto__', 'x')
          .field('__proto__[polluted]', 'yes')
          .field('constructor', 'x'),
    ],
  ])('__proto__ and constructor fields in %s pollute nothing and are stripped', async (_form, send) => {
    const res = await send(request(listenerOf(app)).post('/signups/inspect'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      hasClassPrototype: true,
      hasClassConstructor: true,
      keys: ['email', 'seats'],
    });
  });
});

describe('ctx.bind never throws for bad input', () => {
  test.each([
    ['malformed types', (r: request.Test) => r.send({ email: 42, seats: 'x' }), 422],
    ['an array', (r: request.Test) => r.send([1, 2]), 422],
    ['text/plain', (r: request.Test) => r.type('text/plain').send('hello'), 415],
    ['application/xml', (r: request.Test) => r.type('application/xml').send('<a/>'), 415],
    ['a deeply nested object', (r: request.Test) => r.send({ email: { a: { b: { c: [] } } } }), 422],
  ])('%s gives { ok: false } with the status, not an exception', async (_name, send, status) => {
    const res = await send(request(listenerOf(app)).post('/signups/report'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, status });
  });
});

describe('@Body()', () => {
  test('passes the validated instance to the handler', async () => {
    const res = await request(listenerOf(app))
      .post('/decorated')
      .send({ email: 'ada@example.com', seats: 1 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ isSignup: true, email: 'ada@example.com', seats: 1 });
  });

  test('answers 422 with the fields before the handler runs', async () => {
    const res = await request(listenerOf(app))
      .post('/decorated')
      .send({ email: 'ada@example.com', seats: 0 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'validation failed',
      fields: { seats: ['seats must not be less than 1'] },
    });
  });
});
