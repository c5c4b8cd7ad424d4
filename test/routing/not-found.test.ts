import { Resource, type Application } from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { ActionEcho, send } from '../factories/routing';

@Resource('x')
class XController extends ActionEcho {}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [XController] }));
  app.router.post('/forms', () => ({ posted: true }));
});

describe('404', () => {
  test('an unknown path is 404 with a JSON {"error": ...} body', async () => {
    const res = await send(app, 'GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: 'no route for GET /nope' });
  });

  test('a path deeper than any route is 404, not 405', async () => {
    const res = await send(app, 'DELETE', '/x/1/edit/more');
    expect(res.status).toBe(404);
    expect(res.headers.allow).toBeUndefined();
  });
});

describe('405', () => {
  test('a known path with another method is 405 with Allow listing its methods, GET implying HEAD', async () => {
    const res = await send(app, 'DELETE', '/x');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.body).toEqual({ error: 'method DELETE not allowed on /x' });
  });

  test('a member path lists every method its routes answer', async () => {
    const res = await send(app, 'POST', '/x/1');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PUT, PATCH, DELETE');
  });

  test('Allow has no HEAD when the path has no GET', async () => {
    const res = await send(app, 'GET', '/forms');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('HEAD', () => {
  test('HEAD on a GET route answers 200 with the headers of GET and no body', async () => {
    const get = await send(app, 'GET', '/x/1');
    const head = await send(app, 'HEAD', '/x/1');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text).toBeUndefined();
  });

  test('HEAD on a path with only POST is 405', async () => {
    const res = await send(app, 'HEAD', '/forms');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});
