// APP_ROUTES is keel's own way for its modules to add routes at boot, not part of the public API.
import { Controller, Get, Module, type Router } from 'keel';
import { APP_ROUTES, type RouteRegistrar } from '../../src/routing/app-routes';
import request from 'supertest';
import { bootApp, listenerOf } from '../factories/app';

@Controller('items')
class ItemController {
  @Get()
  index() {
    return ['lamp'];
  }
}

describe('APP_ROUTES', () => {
  test("a module's registrars add routes at boot, after the controllers', and see them all", async () => {
    const seen: string[][] = [];
    const registrar: RouteRegistrar = {
      register(router: Router) {
        seen.push(router.routes().map((route) => route.path));
        router.get('/count', () => ({ routes: router.routes().length }), { name: 'count' });
      },
    };
    @Module({ controllers: [ItemController], providers: [{ provide: APP_ROUTES, useValue: registrar }] })
    class AppModule {}

    const app = await bootApp(AppModule);
    expect(seen).toEqual([['/items']]);
    const res = await request(listenerOf(app)).get('/count');
    expect(res.body).toEqual({ routes: 2 });
    await app.close();
  });

  test('a route a registrar adds twice is the usual boot error', async () => {
    const registrar: RouteRegistrar = {
      register: (router) => router.get('/items', () => [], { name: 'more' }),
    };
    @Module({ controllers: [ItemController], providers: [{ provide: APP_ROUTES, useValue: registrar }] })
    class AppModule {}

    await expect(bootApp(AppModule)).rejects.toMatchObject({ code: 'E_ROUTE_CONFLICT' });
  });
});
