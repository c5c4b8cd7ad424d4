import request from 'supertest';
import { Controller, Get, Param, Post, type Context } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';
import { routeTable } from '../factories/routing';

class HealthEndpoints {
  @Get('ping') ping() {
    return { pong: true };
  }

  @Get('version') version() {
    return { version: 1 };
  }
}

@Controller('inherit')
class InheritingController extends HealthEndpoints {
  @Get('v2') override version() {
    return { version: 2 };
  }

  @Post('echo') echo(ctx: Context) {
    return ctx.req.body as unknown;
  }
}

test('a controller serves the routes its base class declares', async () => {
  const app = await bootApp(moduleWith({ controllers: [InheritingController] }));
  const res = await request(listenerOf(app)).get('/inherit/ping');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ pong: true });
});

test('a method the controller decorates again replaces the route its base class gave it', async () => {
  const app = await bootApp(moduleWith({ controllers: [InheritingController] }));
  expect(routeTable(app)).toEqual([
    'GET /inherit/ping InheritingController.ping',
    'GET /inherit/v2 InheritingController.version',
    'POST /inherit/echo InheritingController.echo',
  ]);
  expect((await request(listenerOf(app)).get('/inherit/v2')).body).toEqual({ version: 2 });
  expect((await request(listenerOf(app)).get('/inherit/version')).status).toBe(404);
});

test('an @Param the route path does not declare fails boot with E_UNKNOWN_PARAM', async () => {
  @Controller('items')
  class TypoController {
    @Get(':id') show(@Param('idd') id: string) {
      return { id };
    }
  }
  await expect(bootApp(moduleWith({ controllers: [TypoController] }))).rejects.toMatchObject({
    code: 'E_UNKNOWN_PARAM',
    message:
      'E_UNKNOWN_PARAM: TypoController.show (/items/:id) reads the path parameter "idd", which its path does not declare.\n' +
      "Fix: read one of the path's :parameters, or add :idd to the path.",
  });
});
