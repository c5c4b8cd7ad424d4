import { IsBoolean, IsInt, IsOptional, IsString } from 'class-validator';
import request from 'supertest';
import type { Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';

class Preferences {
  @IsBoolean() subscribe!: boolean;
  @IsOptional() @IsInt() age?: number;
}

class Note {
  @IsString() title!: string;
  @IsOptional() body?: unknown;
}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({}));
  app.router
    .post('/preferences', async (ctx) => {
      const input = await ctx.bind(Preferences);
      return input.ok ? { value: input.value } : { status: input.status, errors: input.errors };
    })
    .post('/notes', async (ctx) => {
      const input = await ctx.bind(Note);
      return input.ok ? { ok: true } : { status: input.status, errors: input.errors };
    });
});

test.each([
  ['subscribe=false', false],
  ['subscribe=off', false],
  ['subscribe=true', true],
  ['subscribe=on', true],
])('the form value %s binds a boolean property as %s', async (form, subscribe) => {
  const res = await request(listenerOf(app)).post('/preferences').type('form').send(form);
  expect(res.body).toEqual({ value: { subscribe } });
});

test('an empty form field for an optional number is absent, not 0', async () => {
  const res = await request(listenerOf(app)).post('/preferences').type('form').send('subscribe=true&age=');
  expect(res.body).toEqual({ value: { subscribe: true } });
});

test('a form value that is no number fails the number validation', async () => {
  const res = await request(listenerOf(app)).post('/preferences').type('form').send('subscribe=true&age=ten');
  expect(res.body).toEqual({ status: 422, errors: { age: ['age must be an integer number'] } });
});

test('a form value that is no boolean word fails the boolean validation', async () => {
  const res = await request(listenerOf(app)).post('/preferences').type('form').send('subscribe=maybe');
  expect(res.body).toEqual({ status: 422, errors: { subscribe: ['subscribe must be a boolean value'] } });
});

test('a JSON body nested deeper than 32 levels is a 422, not a crash', async () => {
  const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  const res = await request(listenerOf(app))
    .post('/notes')
    .set('Content-Type', 'application/json')
    .send(`{"title":"a","body":${deep}}`);
  expect(res.body).toEqual({ status: 422, errors: { body: ['must not nest deeper than 32 levels'] } });
});

test('a JSON body nested 30 levels deep binds', async () => {
  const res = await request(listenerOf(app))
    .post('/notes')
    .send({ title: 'a', body: JSON.parse(`${'['.repeat(30)}${']'.repeat(30)}`) as unknown });
  expect(res.body).toEqual({ ok: true });
});

test.each(['0x10', '1e3', 'Infinity', '+5', '0b11', ' 1 2'])(
  'a form number in %p, not decimal notation, fails the number validation',
  async (age) => {
    const form = `subscribe=true&age=${encodeURIComponent(age)}`;
    const res = await request(listenerOf(app)).post('/preferences').type('form').send(form);
    expect(res.body).toEqual({ status: 422, errors: { age: ['age must be an integer number'] } });
  },
);

test.each([
  ['42', 42],
  ['-7', -7],
  [' 12 ', 12],
])('a decimal form number %p binds as %p', async (age, expected) => {
  const form = `subscribe=true&age=${encodeURIComponent(age)}`;
  const res = await request(listenerOf(app)).post('/preferences').type('form').send(form);
  expect(res.body).toEqual({ value: { subscribe: true, age: expected } });
});
