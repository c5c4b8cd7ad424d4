import request from 'supertest';
import { ApiResource, Controller, Get, Module, Resource, type Context } from 'keel';
import { bootApp, moduleWith, useServedApp } from '../factories/app';

@Resource('orders')
class OrderController {
  index() {}
  create() {}
  store() {}
  show(ctx: Context) {
    return { route: ctx.route, self: ctx.urlFor('orders.show', { id: ctx.param('id') }) };
  }
  edit() {}
  update() {}
  destroy() {}
}

@ApiResource('api/orders', { only: ['index', 'show'] })
class OrderApiController {
  index() {}
  show() {}
}

@Controller('files')
class FileController {
  @Get('*path', { name: 'files.read' }) read() {}
  @Get('docs{/:page}', { name: 'files.docs' }) docs() {}
  @Get('plain') plain() {}
}

describe('urlFor', () => {
  const served = useServedApp(
    moduleWith({ controllers: [OrderController, OrderApiController, FileController] }),
    {},
    (app) => app.router.get('/', () => ({ home: true }), { name: 'home' }),
  );
  const app = () => served().app;

  test('resource routes are named <resource>.<action>, an API under api/ as api.<resource>.<action>', () => {
    expect(app().urlFor('orders.index')).toBe('/orders');
    expect(app().urlFor('orders.create')).toBe('/orders/create');
    expect(app().urlFor('orders.edit', { id: 7 })).toBe('/orders/7/edit');
    expect(app().urlFor('orders.update', { id: 7 })).toBe('/orders/7');
    expect(app().urlFor('api.orders.show', { id: 3 })).toBe('/api/orders/3');
  });

  test('parameters are percent-encoded', () => {
    expect(app().urlFor('orders.show', { id: 'a/b c' })).toBe('/orders/a%2Fb%20c');
    expect(app().urlFor('orders.show', { id: '50%?#' })).toBe('/orders/50%25%3F%23');
  });

  test('a wildcard keeps its slashes, an optional group is left out when not given', () => {
    expect(app().urlFor('files.read', { path: 'reports/2026 q1.pdf' })).toBe('/files/reports/2026%20q1.pdf');
    expect(app().urlFor('files.docs')).toBe('/files/docs');
    expect(app().urlFor('files.docs', { page: 'intro' })).toBe('/files/docs/intro');
  });

  test('a query is appended, encoded, arrays repeated and undefined left out', () => {
    expect(app().urlFor('orders.index', {}, { page: 2, q: 'a&b', tag: ['x', 'y'], skip: undefined })).toBe(
      '/orders?page=2&q=a%26b&tag=x&tag=y',
    );
  });

  test('routes without a name option are named Controller.method; function routes take { name }', () => {
    expect(app().urlFor('FileController.plain')).toBe('/files/plain');
    expect(app().urlFor('home')).toBe('/');
  });

  test('an unknown name is an error naming it', () => {
    expect(() => app().urlFor('orders.archive')).toThrow(
      /E_UNKNOWN_ROUTE_NAME: no route is named "orders.archive"/,
    );
  });

  test('a missing parameter is an error naming it and the route', () => {
    expect(() => app().urlFor('orders.show')).toThrow(
      'E_MISSING_ROUTE_PARAM: the route "orders.show" (/orders/:id) needs the parameter "id".',
    );
  });

  test('ctx.route and ctx.urlFor inside a request', async () => {
    const res = await request(served().url).get('/orders/12');
    expect(res.body).toEqual({
      route: { name: 'orders.show', method: 'GET', path: '/orders/:id' },
      self: '/orders/12',
    });
  });
});

test('one name given to two paths stops the boot, naming both', async () => {
  @Controller('a')
  class First {
    @Get('x', { name: 'shared' }) x() {}
  }
  @Controller('b')
  class Second {
    @Get('y', { name: 'shared' }) y() {}
  }
  @Module({ controllers: [First, Second] })
  class ClashModule {}
  await expect(bootApp(ClashModule)).rejects.toThrow(
    'E_ROUTE_NAME_CONFLICT: the route name "shared" is given to two paths: by First.x and by Second.y.',
  );
});
