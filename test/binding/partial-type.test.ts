import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { Body, Controller, PartialType, Patch, Put, type Context } from 'keel';
import request from 'supertest';
import { bootApp, listenerOf, moduleWith } from '../factories/app';

class Address {
  @IsString() city!: string;
}

class ProfileInput {
  @IsString() @Length(1, 40) name!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
  @IsOptional() @IsString() nickname?: string;
  @IsObject() @ValidateNested() @Type(() => Address) address!: Address;
}

class ProfileChanges extends PartialType(ProfileInput) {}

// What the handler's Object.assign does to a stored profile, as a PATCH handler would.
const stored = { name: 'Ada', age: 36, nickname: 'Countess', address: { city: 'London' } };

@Controller('profiles')
class ProfileController {
  @Put(':id')
  replace(@Body() input: ProfileInput) {
    return { keys: Object.keys(input), merged: Object.assign({ ...stored }, input) };
  }

  @Patch(':id')
  change(@Body() input: ProfileChanges) {
    return { keys: Object.keys(input), merged: Object.assign({ ...stored }, input) };
  }

  @Patch(':id/bound')
  async bound(ctx: Context) {
    const input = await ctx.bind(PartialType(ProfileInput));
    if (!input.ok) throw input.error;
    return { keys: Object.keys(input.value) };
  }
}

let server: ReturnType<typeof listenerOf>;
let close: () => Promise<void>;

beforeAll(async () => {
  const app = await bootApp(moduleWith({ controllers: [ProfileController] }));
  server = listenerOf(app);
  close = () => app.close();
});

afterAll(() => close());

describe('PartialType(Class) binds what a PATCH sends, and only that', () => {
  test('an empty body is valid and changes nothing', async () => {
    const res = await request(server).patch('/profiles/1').send({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keys: [], merged: stored });
  });

  test('a field it sends is validated and written; the absent ones stay absent, not undefined', async () => {
    const res = await request(server).patch('/profiles/1').send({ age: 37 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keys: ['age'], merged: { ...stored, age: 37 } });
  });

  test("a field it sends is held to the base class's rules: out of range, wrong type, null", async () => {
    const res = await request(server).patch('/profiles/1').send({ age: 200, name: 7, address: null });
    expect(res.status).toBe(422);
    expect(Object.keys((res.body as { fields: object }).fields).sort()).toEqual(['address', 'age', 'name']);
  });

  test('nested classes keep their rules through the partial class', async () => {
    const res = await request(server)
      .patch('/profiles/1')
      .send({ address: { city: 5 } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'validation failed',
      fields: { 'address.city': ['city must be a string'] },
    });
  });

  test('a form is converted as for the base class: a number field becomes a number', async () => {
    const res = await request(server).patch('/profiles/1').type('form').send({ age: '40' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keys: ['age'], merged: { ...stored, age: 40 } });
  });

  test('unknown fields are still stripped', async () => {
    const res = await request(server).patch('/profiles/1').send({ admin: true });
    expect(res.body).toEqual({ keys: [], merged: stored });
  });

  test('the base class is unchanged: PUT still requires every field', async () => {
    const res = await request(server).put('/profiles/1').send({ age: 37 });
    expect(res.status).toBe(422);
    expect(Object.keys((res.body as { fields: object }).fields).sort()).toEqual(['address', 'name']);
  });

  test('a full bind leaves an optional field it did not send absent too', async () => {
    const res = await request(server)
      .put('/profiles/1')
      .send({ name: 'Ada', age: 37, address: { city: 'Paris' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      keys: ['name', 'age', 'address'],
      merged: { ...stored, age: 37, address: { city: 'Paris' } },
    });
  });

  test('the same class comes back for the same base, so ctx.bind(PartialType(X)) registers nothing per request', async () => {
    expect(PartialType(ProfileInput)).toBe(PartialType(ProfileInput));
    expect(PartialType(ProfileInput).name).toBe('PartialProfileInput');
    const res = await request(server).patch('/profiles/1/bound').send({ nickname: 'Ada' });
    expect(res.body).toEqual({ keys: ['nickname'] });
  });

  test('refuses what is not a class, saying what it needs', () => {
    expect(() => PartialType('ProfileInput' as never)).toThrow('PartialType(base) needs a class');
  });
});
