import request from 'supertest';
import { Controller, Get, Resource, type Context } from 'keel';
import { bootApp, moduleWith } from './factories/app';

@Resource('x')
class X {
  index() {
    return { a: 'index' };
  }
  create() {
    return { a: 'create' };
  }
  store(ctx: Context) {
    ctx.json(201, ctx.req.body);
  }
  show(ctx: Context) {
    return { a: 'show', id: ctx.param('id') };
  }
  edit(ctx: Context) {
    return { a: 'edit', id: ctx.param('id') };
  }
  update() {
    return { a: 'update' };
  }
  destroy() {
    return { a: 'destroy' };
  }
}
@Controller('c')
class C {
  @Get(':id') one(ctx: Context) {
    return { id: ctx.param('id') };
  }
  @Get('list') list() {
    return ['list'];
  }
}

test('smoke', async () => {
  const app = await bootApp(moduleWith({ controllers: [X, C] }));
  const agent = request(app.express);
  expect((await agent.get('/x/create')).body).toEqual({ a: 'create' });
  expect((await agent.get('/x/7')).body).toEqual({ a: 'show', id: '7' });
  expect((await agent.get('/c/list')).body).toEqual(['list']);
  expect((await agent.post('/x').send({ q: 1 })).status).toBe(201);
  expect((await agent.post('/x/3').type('form').send({ _method: 'DELETE' })).body).toEqual({ a: 'destroy' });
  const r = await agent.delete('/x');
  expect(r.status).toBe(405);
  expect(r.headers.allow).toBe('GET, HEAD, POST');
  expect((await agent.get('/nope')).status).toBe(404);
  expect((await agent.post('/x').set('content-type', 'application/json').send('{bad')).status).toBe(400);
});
