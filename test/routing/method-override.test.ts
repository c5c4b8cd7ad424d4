import request from 'supertest';
import { Resource, type Application } from 'keel';
import { bootApp, moduleWith, listenerOf } from '../factories/app';
import { ActionEcho } from '../factories/routing';

@Resource('x')
class XController extends ActionEcho {}

let app: Application;

beforeAll(async () => {
  app = await bootApp(moduleWith({ controllers: [XController] }));
});

describe('a POSTed form with _method', () => {
  // Each method _method can name, and the action it reaches on a member path.
  const overrides = [
    ['DELETE', 'destroy'],
    ['PUT', 'update'],
    ['PATCH', 'update'],
  ];

  test.each(overrides)('_method=%s in a urlencoded form reaches %s', async (method, action) => {
    const res = await request(listenerOf(app)).post('/x/5').type('form').send({ _method: method });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ action, id: '5' });
  });

  test.each(overrides)('_method=%s in a multipart form reaches %s', async (method, action) => {
    const res = await request(listenerOf(app)).post('/x/5').field('_method', method).field('title', 'x');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ action, id: '5' });
  });

  test('_method=DELETE on a path without DELETE is 405 for DELETE', async () => {
    const res = await request(listenerOf(app)).post('/x').type('form').send({ _method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.body).toEqual({ error: 'method DELETE not allowed on /x' });
  });
});

describe('what is not overridden', () => {
  test('_method=GET stays a POST: POST /x reaches store', async () => {
    const res = await request(listenerOf(app)).post('/x').type('form').send({ _method: 'GET' });
    expect(res.body).toEqual({ action: 'store' });
  });

  test('_method=GET on a member stays a POST, which has no route there', async () => {
    const res = await request(listenerOf(app)).post('/x/5').type('form').send({ _method: 'GET' });
    expect(res.status).toBe(405);
  });

  test('a JSON body with _method=DELETE stays a POST', async () => {
    const res = await request(listenerOf(app)).post('/x').send({ _method: 'DELETE' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ action: 'store' });
  });

  test('a JSON body with _method=DELETE on a member is not dispatched to destroy', async () => {
    const res = await request(listenerOf(app)).post('/x/5').send({ _method: 'DELETE' });
    expect(res.status).toBe(405);
  });

  test('_method in the query string of a POST is not a form field and is ignored', async () => {
    const res = await request(listenerOf(app)).post('/x?_method=DELETE').type('form').send({ title: 'x' });
    expect(res.body).toEqual({ action: 'store' });
  });

  test('_method on a request that is not a POST is ignored: PUT stays PUT', async () => {
    const res = await request(listenerOf(app)).put('/x/5').type('form').send({ _method: 'DELETE' });
    expect(res.body).toEqual({ action: 'update', id: '5' });
  });
});
