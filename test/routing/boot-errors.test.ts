import { ApiResource, Body, Controller, Get, Post, Resource, type Context, type ResourceAction } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { ActionEcho, routeTable, send } from '../factories/routing';

/** A resource controller with every action but update. */
class WithoutUpdate {
  index() {
    return 'index';
  }
  create() {
    return 'create';
  }
  store() {
    return 'store';
  }
  show() {
    return 'show';
  }
  edit() {
    return 'edit';
  }
  destroy() {
    return 'destroy';
  }
}

/** Action names that are not resource actions, spelled past the type checker as a user could. */
function unknownActions(...names: string[]): ResourceAction[] {
  return names as ResourceAction[];
}

describe('E_MISSING_ACTION', () => {
  test('a @Resource without an action method fails boot, naming the class, the action and the fix', async () => {
    @Resource('x')
    class XController extends WithoutUpdate {}

    await expect(bootApp(moduleWith({ controllers: [XController] }))).rejects.toMatchObject({
      name: 'FrameworkError',
      code: 'E_MISSING_ACTION',
      message:
        'E_MISSING_ACTION: XController is registered as a resource at /x but has no method "update" (PUT/PATCH /x/:id).\n' +
        "Fix: add the method update(ctx) to XController, or leave the action out with { except: ['update'] }.",
    });
  });

  test('an @ApiResource without an action method fails boot, naming the class and the action', async () => {
    @ApiResource('api/x')
    class XApiController extends WithoutUpdate {}

    await expect(bootApp(moduleWith({ controllers: [XApiController] }))).rejects.toMatchObject({
      code: 'E_MISSING_ACTION',
      message:
        'E_MISSING_ACTION: XApiController is registered as an API resource at /api/x but has no method "update" (PUT/PATCH /api/x/:id).\n' +
        "Fix: add the method update(ctx) to XApiController, or leave the action out with { except: ['update'] }.",
    });
  });

  test('a missing action left out with except boots, without its routes', async () => {
    @Resource('x', { except: ['update'] })
    class XController extends WithoutUpdate {}

    const app = await bootApp(moduleWith({ controllers: [XController] }));
    expect(routeTable(app)).not.toContainEqual(expect.stringContaining('x.update'));
    expect((await send(app, 'GET', '/x/1')).status).toBe(200);
  });

  test('a missing action left out by only boots', async () => {
    @Resource('x', { only: ['index', 'show'] })
    class XController {
      index() {
        return 'index';
      }
      show() {
        return 'show';
      }
    }

    const app = await bootApp(moduleWith({ controllers: [XController] }));
    expect(routeTable(app)).toEqual(['GET /x x.index', 'GET /x/:id x.show']);
  });

  test('router.resource with an instance missing an action throws and adds none of its routes', async () => {
    const app = await bootApp(moduleWith({}));
    expect(() => app.router.resource('/photos', new WithoutUpdate())).toThrow(
      'E_MISSING_ACTION: WithoutUpdate is registered as a resource at /photos but has no method "update" (PUT/PATCH /photos/:id).',
    );
    expect(app.router.routes()).toEqual([]);
  });
});

describe('E_UNKNOWN_ACTION', () => {
  test('an unknown action in only fails boot, naming the class, the action and the known ones', async () => {
    @Resource('x', { only: unknownActions('index', 'remove') })
    class XController extends ActionEcho {}

    await expect(bootApp(moduleWith({ controllers: [XController] }))).rejects.toMatchObject({
      code: 'E_UNKNOWN_ACTION',
      message:
        'E_UNKNOWN_ACTION: XController names the action "remove" in only/except, which is not a resource action.\n' +
        'Fix: use one of index, create, store, show, edit, update, destroy.',
    });
  });

  test('an unknown action in except fails boot', async () => {
    @ApiResource('api/x', { except: unknownActions('delete') })
    class XApiController extends ActionEcho {}

    await expect(bootApp(moduleWith({ controllers: [XApiController] }))).rejects.toMatchObject({
      code: 'E_UNKNOWN_ACTION',
      message:
        'E_UNKNOWN_ACTION: XApiController names the action "delete" in only/except, which is not a resource action.\n' +
        'Fix: use one of index, create, store, show, edit, update, destroy.',
    });
  });

  test('router.resource with an unknown action throws E_UNKNOWN_ACTION', async () => {
    const app = await bootApp(moduleWith({}));
    expect(() => app.router.resource('/photos', new ActionEcho(), { only: unknownActions('list') })).toThrow(
      'E_UNKNOWN_ACTION: ActionEcho names the action "list" in only/except',
    );
  });
});

describe('E_ROUTE_CONFLICT', () => {
  const fix = '\nFix: change the path or the method of one of them.';

  test('two methods of one controller with the same method and path fail boot, naming both', async () => {
    @Controller('dup')
    class DupController {
      @Get() first() {
        return 1;
      }
      @Get('/') second() {
        return 2;
      }
    }

    await expect(bootApp(moduleWith({ controllers: [DupController] }))).rejects.toMatchObject({
      code: 'E_ROUTE_CONFLICT',
      message: `E_ROUTE_CONFLICT: GET /dup is declared twice: by DupController.first and by DupController.second.${fix}`,
    });
  });

  test('the same method and path in two controllers fail boot, naming both', async () => {
    @Controller('shared')
    class FirstController {
      @Post('items') add() {
        return 1;
      }
    }
    @Controller('shared/items')
    class SecondController {
      @Post() create() {
        return 2;
      }
    }

    await expect(
      bootApp(moduleWith({ controllers: [FirstController, SecondController] })),
    ).rejects.toMatchObject({
      code: 'E_ROUTE_CONFLICT',
      message: `E_ROUTE_CONFLICT: POST /shared/items is declared twice: by FirstController.add and by SecondController.create.${fix}`,
    });
  });

  test('/x/:id and /x/:key are the same route: they fail boot, naming both', async () => {
    @Controller('x')
    class ByIdController {
      @Get(':id') byId(ctx: Context) {
        return ctx.param('id');
      }
    }
    @Controller('x')
    class ByKeyController {
      @Get(':key') byKey(ctx: Context) {
        return ctx.param('key');
      }
    }

    await expect(
      bootApp(moduleWith({ controllers: [ByIdController, ByKeyController] })),
    ).rejects.toMatchObject({
      code: 'E_ROUTE_CONFLICT',
      message: `E_ROUTE_CONFLICT: GET /x/:key is declared twice: by ByIdController.byId and by ByKeyController.byKey.${fix}`,
    });
  });

  test("a resource's show and another controller's GET on its member path fail boot, naming both", async () => {
    @Resource('posts')
    class PostController extends ActionEcho {}
    @Controller('posts')
    class SlugController {
      @Get(':slug') bySlug() {
        return 'slug';
      }
    }

    await expect(
      bootApp(moduleWith({ controllers: [PostController, SlugController] })),
    ).rejects.toMatchObject({
      code: 'E_ROUTE_CONFLICT',
      message: `E_ROUTE_CONFLICT: GET /posts/:slug is declared twice: by PostController.show and by SlugController.bySlug.${fix}`,
    });
  });

  test('the same path under different methods is no conflict', async () => {
    @Controller('x')
    class ReadController {
      @Get(':id') read() {
        return 'read';
      }
    }
    @Controller('x')
    class WriteController {
      @Post(':key') write() {
        return 'write';
      }
    }

    const app = await bootApp(moduleWith({ controllers: [ReadController, WriteController] }));
    expect((await send(app, 'POST', '/x/1')).body).toBe('write');
  });

  test('app.router.get on a path a controller declared throws, naming both, and the first keeps serving', async () => {
    @Controller('taken')
    class TakenController {
      @Get() first() {
        return 'first';
      }
    }
    const app = await bootApp(moduleWith({ controllers: [TakenController] }));

    expect(() => app.router.get('/taken', function second() {})).toThrow(
      `E_ROUTE_CONFLICT: GET /taken is declared twice: by TakenController.first and by second.${fix}`,
    );
    expect((await send(app, 'GET', '/taken')).body).toBe('first');
  });

  test('a router resource that conflicts with one existing route adds none of its routes', async () => {
    const app = await bootApp(moduleWith({}));
    app.router.get('/photos/:photo', () => 'existing');

    expect(() => app.router.resource('/photos', new ActionEcho())).toThrow('E_ROUTE_CONFLICT');
    expect(routeTable(app)).toEqual(['GET /photos/:photo GET /photos/:photo']);
    expect((await send(app, 'GET', '/photos')).status).toBe(404);
  });
});

describe('E_INVALID_ROUTE', () => {
  interface Payload {
    name: string;
  }

  test('@Body() on a parameter typed by an interface fails boot, naming the method and the fix', async () => {
    @Controller('payloads')
    class PayloadController {
      @Post() store(@Body() input: Payload) {
        return input;
      }
    }

    await expect(bootApp(moduleWith({ controllers: [PayloadController] }))).rejects.toMatchObject({
      code: 'E_INVALID_ROUTE',
      message:
        'E_INVALID_ROUTE: PayloadController.store: @Body() on parameter #0 needs a class type, or @Body(Class)',
    });
  });

  test('@Body() on a parameter typed string fails boot, since string is no class to bind into', async () => {
    @Controller('texts')
    class TextController {
      @Post() store(@Body() input: string) {
        return input;
      }
    }

    await expect(bootApp(moduleWith({ controllers: [TextController] }))).rejects.toMatchObject({
      code: 'E_INVALID_ROUTE',
      message:
        'E_INVALID_ROUTE: TextController.store: @Body() on parameter #0 needs a class type, or @Body(Class)',
    });
  });
});
