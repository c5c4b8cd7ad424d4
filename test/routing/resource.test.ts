import { Param, Resource, type Application } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { ActionEcho, routeTable, send, type Verb } from '../factories/routing';

@Resource('x')
class XController extends ActionEcho {}

@Resource('narrow', { only: ['destroy', 'index', 'show'] })
class NarrowController extends ActionEcho {}

@Resource('trimmed', { except: ['create', 'edit', 'store'] })
class TrimmedController extends ActionEcho {}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [XController, NarrowController, TrimmedController] }));
});

describe('@Resource', () => {
  test('registers the seven routes in the canonical order, update under PUT and PATCH', () => {
    expect(routeTable(app).filter((line) => line.includes(' x.'))).toEqual([
      'GET /x x.index',
      'GET /x/create x.create',
      'POST /x x.store',
      'GET /x/:id x.show',
      'GET /x/:id/edit x.edit',
      'PUT /x/:id x.update',
      'PATCH /x/:id x.update',
      'DELETE /x/:id x.destroy',
    ]);
  });

  test('names the controller method as the source of each route', () => {
    const sources = app.router
      .routes()
      .filter((route) => route.name.startsWith('x.'))
      .map((route) => route.source);
    expect(sources).toEqual([
      'XController.index',
      'XController.create',
      'XController.store',
      'XController.show',
      'XController.edit',
      'XController.update',
      'XController.update',
      'XController.destroy',
    ]);
  });

  test.each<[Verb, string, object]>([
    ['GET', '/x', { action: 'index' }],
    ['GET', '/x/create', { action: 'create' }],
    ['POST', '/x', { action: 'store' }],
    ['GET', '/x/7', { action: 'show', id: '7' }],
    ['GET', '/x/7/edit', { action: 'edit', id: '7' }],
    ['PUT', '/x/7', { action: 'update', id: '7' }],
    ['PATCH', '/x/7', { action: 'update', id: '7' }],
    ['DELETE', '/x/7', { action: 'destroy', id: '7' }],
  ])('%s %s reaches its action', async (method, path, answer) => {
    const res = await send(app, method, path);
    expect(res.status).toBe(method === 'POST' ? 201 : 200);
    expect(res.body).toEqual(answer);
  });

  test('GET /x/create reaches create, not show', async () => {
    const res = await send(app, 'GET', '/x/create');
    expect(res.body).toEqual({ action: 'create' });
  });

  test(':id is read as a string, not a number', async () => {
    const res = await send(app, 'GET', '/x/42');
    expect(res.body).toEqual({ action: 'show', id: '42' });
    expect(typeof (res.body as { id: unknown }).id).toBe('string');
  });
});

describe('@Resource with only', () => {
  test('registers the selected actions in the table order, not the order listed', () => {
    expect(routeTable(app).filter((line) => line.includes(' narrow.'))).toEqual([
      'GET /narrow narrow.index',
      'GET /narrow/:id narrow.show',
      'DELETE /narrow/:id narrow.destroy',
    ]);
  });

  test('a selected action is reached', async () => {
    const res = await send(app, 'DELETE', '/narrow/3');
    expect(res.body).toEqual({ action: 'destroy', id: '3' });
  });

  test('an action left out has no route: PUT on its path is 405', async () => {
    const res = await send(app, 'PUT', '/narrow/3');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, DELETE');
  });

  test('an action left out has no route: its edit path is 404', async () => {
    const res = await send(app, 'GET', '/narrow/3/edit');
    expect(res.status).toBe(404);
  });

  test('without create, GET /narrow/create is show with the id "create"', async () => {
    const res = await send(app, 'GET', '/narrow/create');
    expect(res.body).toEqual({ action: 'show', id: 'create' });
  });
});

describe('@Resource with except', () => {
  test('registers the remaining actions in the table order', () => {
    expect(routeTable(app).filter((line) => line.includes(' trimmed.'))).toEqual([
      'GET /trimmed trimmed.index',
      'GET /trimmed/:id trimmed.show',
      'PUT /trimmed/:id trimmed.update',
      'PATCH /trimmed/:id trimmed.update',
      'DELETE /trimmed/:id trimmed.destroy',
    ]);
  });

  test('an excluded store makes POST on the collection 405', async () => {
    const res = await send(app, 'POST', '/trimmed');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  test('an excluded edit makes its path 404', async () => {
    const res = await send(app, 'GET', '/trimmed/3/edit');
    expect(res.status).toBe(404);
  });

  test('a remaining action is reached', async () => {
    const res = await send(app, 'PATCH', '/trimmed/3');
    expect(res.body).toEqual({ action: 'update', id: '3' });
  });
});

describe('inherited actions', () => {
  class ShowsId {
    show(@Param('id') id: unknown) {
      return { action: 'show', id, type: typeof id };
    }
  }

  @Resource('inherited', { only: ['show'] })
  class InheritedController extends ShowsId {}

  test('an action inherited from a base class keeps its parameter decorators', async () => {
    const inherited = await bootApp(moduleWith({ controllers: [InheritedController] }));
    const res = await send(inherited, 'GET', '/inherited/5');
    expect(res.body).toEqual({ action: 'show', id: '5', type: 'string' });
  });
});
