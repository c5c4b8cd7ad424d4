import { ApiResource, type Application } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { ActionEcho, routeTable, send, type Verb } from '../factories/routing';

// ActionEcho has create and edit too: an API resource must leave them unrouted all the same.
@ApiResource('api/x')
class XApiController extends ActionEcho {}

@ApiResource('api/narrow', { except: ['destroy'] })
class NarrowApiController extends ActionEcho {}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [XApiController, NarrowApiController] }));
});

describe('@ApiResource', () => {
  test('registers the five API routes in the canonical order, without create and edit', () => {
    expect(routeTable(app).filter((line) => line.includes(' api.x.'))).toEqual([
      'GET /api/x api.x.index',
      'POST /api/x api.x.store',
      'GET /api/x/:id api.x.show',
      'PUT /api/x/:id api.x.update',
      'PATCH /api/x/:id api.x.update',
      'DELETE /api/x/:id api.x.destroy',
    ]);
  });

  test.each<[Verb, string, object]>([
    ['GET', '/api/x', { action: 'index' }],
    ['POST', '/api/x', { action: 'store' }],
    ['GET', '/api/x/7', { action: 'show', id: '7' }],
    ['PUT', '/api/x/7', { action: 'update', id: '7' }],
    ['PATCH', '/api/x/7', { action: 'update', id: '7' }],
    ['DELETE', '/api/x/7', { action: 'destroy', id: '7' }],
  ])('%s %s reaches its action', async (method, path, answer) => {
    const res = await send(app, method, path);
    expect(res.status).toBe(method === 'POST' ? 201 : 200);
    expect(res.body).toEqual(answer);
  });

  test('GET /api/x/:id/edit is 404', async () => {
    const res = await send(app, 'GET', '/api/x/7/edit');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'no route for GET /api/x/7/edit' });
  });

  test('GET /api/x/create reaches show with the id "create", never create', async () => {
    const res = await send(app, 'GET', '/api/x/create');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ action: 'show', id: 'create' });
  });

  test('except narrows the five routes and keeps their order', () => {
    expect(routeTable(app).filter((line) => line.includes(' api.narrow.'))).toEqual([
      'GET /api/narrow api.narrow.index',
      'POST /api/narrow api.narrow.store',
      'GET /api/narrow/:id api.narrow.show',
      'PUT /api/narrow/:id api.narrow.update',
      'PATCH /api/narrow/:id api.narrow.update',
    ]);
  });

  test('an excluded destroy makes DELETE on a member 405', async () => {
    const res = await send(app, 'DELETE', '/api/narrow/7');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PUT, PATCH');
  });
});
