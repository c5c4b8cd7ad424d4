import request from 'supertest';
import { Injectable, type Application, type Context } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';
import { ActionEcho, routeTable, send, type Verb } from '../factories/routing';

@Injectable()
class PhotoStore {
  readonly titles: string[] = ['sunrise'];
}

@Injectable()
class PhotoController extends ActionEcho {
  constructor(private readonly photos: PhotoStore) {
    super();
  }
  override index() {
    return { action: 'index', titles: this.photos.titles };
  }
  override store(ctx: Context): void {
    this.photos.titles.push(ctx.form('title', 'untitled'));
    ctx.redirect(303, '/photos');
  }
}

function boot(): Promise<Application> {
  return bootApp(moduleWith({ providers: [PhotoStore] }));
}

describe('function controllers', () => {
  let app: Application;

  beforeAll(async () => {
    app = await boot();
    app.router
      .get('/fn', () => ({ method: 'GET', kind: 'sync' }))
      .post('/fn', async () => {
        await Promise.resolve();
        return { method: 'POST', kind: 'async' };
      })
      .put('/fn/:id', (ctx) => ({ method: 'PUT', id: ctx.param('id') }))
      .patch('/fn/:id', async (ctx) => {
        await Promise.resolve();
        ctx.json(202, { method: 'PATCH', id: ctx.param('id') });
      })
      .delete('/fn/:id', (ctx) => {
        ctx.res.status(204).end();
      });
  });

  test.each<[Verb, string, number, object]>([
    ['GET', '/fn', 200, { method: 'GET', kind: 'sync' }],
    ['POST', '/fn', 201, { method: 'POST', kind: 'async' }],
    ['PUT', '/fn/1', 200, { method: 'PUT', id: '1' }],
    ['PATCH', '/fn/1', 202, { method: 'PATCH', id: '1' }],
  ])('router %s %s reaches its function', async (method, path, status, answer) => {
    const res = await send(app, method, path);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(answer);
  });

  test('router.delete reaches its function', async () => {
    const res = await send(app, 'DELETE', '/fn/1');
    expect(res.status).toBe(204);
  });

  test('lists each function route, named after its method and path', () => {
    expect(routeTable(app)).toEqual([
      'GET /fn GET /fn',
      'POST /fn POST /fn',
      'PUT /fn/:id PUT /fn/:id',
      'PATCH /fn/:id PATCH /fn/:id',
      'DELETE /fn/:id DELETE /fn/:id',
    ]);
  });
});

describe('router.resource', () => {
  test('registers the seven routes of a class in the canonical order', async () => {
    const app = await boot();
    app.router.resource('/photos', PhotoController);
    expect(routeTable(app)).toEqual([
      'GET /photos photos.index',
      'GET /photos/create photos.create',
      'POST /photos photos.store',
      'GET /photos/:id photos.show',
      'GET /photos/:id/edit photos.edit',
      'PUT /photos/:id photos.update',
      'PATCH /photos/:id photos.update',
      'DELETE /photos/:id photos.destroy',
    ]);
  });

  test('resolves a class through DI, injecting the root module provider', async () => {
    const app = await boot();
    app.router.resource('/photos', PhotoController);
    app.get(PhotoStore).titles.push('dusk');
    const res = await send(app, 'GET', '/photos');
    expect(res.body).toEqual({ action: 'index', titles: ['sunrise', 'dusk'] });
  });

  test('a class resolved through DI shares the provider with the rest of the application', async () => {
    const app = await boot();
    app.router.resource('/photos', PhotoController);
    const stored = await request(listenerOf(app)).post('/photos').type('form').send({ title: 'noon' });
    expect(stored.status).toBe(303);
    expect(app.get(PhotoStore).titles).toEqual(['sunrise', 'noon']);
  });

  test('uses an instance as given', async () => {
    const app = await boot();
    const store = new PhotoStore();
    store.titles.push('own');
    app.router.resource('/photos', new PhotoController(store));
    const res = await send(app, 'GET', '/photos');
    expect(res.body).toEqual({ action: 'index', titles: ['sunrise', 'own'] });
  });

  test('GET /photos/create reaches create, not show', async () => {
    const app = await boot();
    app.router.resource('/photos', PhotoController);
    const res = await send(app, 'GET', '/photos/create');
    expect(res.body).toEqual({ action: 'create' });
  });

  test('only narrows the routes of a router resource', async () => {
    const app = await boot();
    app.router.resource('/photos', PhotoController, { only: ['show', 'index'] });
    expect(routeTable(app)).toEqual(['GET /photos photos.index', 'GET /photos/:id photos.show']);
  });
});

describe('router.apiResource', () => {
  test('registers the five API routes and reaches them', async () => {
    const app = await boot();
    app.router.apiResource('/api/photos', new ActionEcho());
    expect(routeTable(app)).toEqual([
      'GET /api/photos api.photos.index',
      'POST /api/photos api.photos.store',
      'GET /api/photos/:id api.photos.show',
      'PUT /api/photos/:id api.photos.update',
      'PATCH /api/photos/:id api.photos.update',
      'DELETE /api/photos/:id api.photos.destroy',
    ]);
    expect((await send(app, 'PUT', '/api/photos/4')).body).toEqual({ action: 'update', id: '4' });
  });

  test('leaves GET /api/photos/:id/edit unrouted', async () => {
    const app = await boot();
    app.router.apiResource('/api/photos', new ActionEcho());
    expect((await send(app, 'GET', '/api/photos/4/edit')).status).toBe(404);
  });
});

describe('routes added over time', () => {
  test('a route added after createApplication is served', async () => {
    const app = await boot();
    app.router.get('/late', () => ({ late: true }));
    const res = await send(app, 'GET', '/late');
    expect(res.body).toEqual({ late: true });
  });

  test('a route added after the first request is served', async () => {
    const app = await boot();
    app.router.get('/first', () => ({ first: true }));
    expect((await send(app, 'GET', '/first')).status).toBe(200);
    expect((await send(app, 'GET', '/second')).status).toBe(404);

    app.router.get('/second', () => ({ second: true }));
    const res = await send(app, 'GET', '/second');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ second: true });
  });

  test('a static route added later (/photos/popular) beats an earlier /photos/:id', async () => {
    const app = await boot();
    app.router.resource('/photos', PhotoController);
    expect((await send(app, 'GET', '/photos/popular')).body).toEqual({ action: 'show', id: 'popular' });

    app.router.get('/photos/popular', () => ({ action: 'popular' }));
    expect((await send(app, 'GET', '/photos/popular')).body).toEqual({ action: 'popular' });
    expect((await send(app, 'GET', '/photos/8')).body).toEqual({ action: 'show', id: '8' });
  });

  test('a static route added later beats an earlier parameter route, with a collection route between', async () => {
    const app = await boot();
    app.router
      .get('/tags/:id', (ctx) => ({ handler: 'one', id: ctx.param('id') }))
      .get('/tags', () => ({ handler: 'all' }))
      .get('/tags/popular', () => ({ handler: 'popular' }));
    expect((await send(app, 'GET', '/tags/popular')).body).toEqual({ handler: 'popular' });
  });

  test('404 and 405 still come after routes added later', async () => {
    const app = await boot();
    expect((await send(app, 'GET', '/later')).status).toBe(404);

    app.router.post('/later', () => ({ posted: true }));
    const wrongMethod = await send(app, 'GET', '/later');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('POST');
    expect((await send(app, 'POST', '/later')).body).toEqual({ posted: true });
    expect((await send(app, 'GET', '/later/still-missing')).status).toBe(404);
  });
});
