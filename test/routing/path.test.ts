// The path functions are internal to the router, so this unit test reaches into src/ directly.
import { joinPath, routeShape, toTablePath } from '../../src/routing/path';

describe('joinPath', () => {
  test('joins pieces with single slashes', () => {
    expect(joinPath('/api/', 'orders', ':id')).toBe('/api/orders/:id');
  });

  test('adds the leading slash and drops the trailing one', () => {
    expect(joinPath('orders/')).toBe('/orders');
  });

  test('collapses repeated slashes inside a piece', () => {
    expect(joinPath('//api//orders//', '/:id/')).toBe('/api/orders/:id');
  });

  test('gives the root for nothing, or only empty pieces', () => {
    expect(joinPath()).toBe('/');
    expect(joinPath('', '/', '')).toBe('/');
  });
});

describe('routeShape', () => {
  test('erases parameter names, so /x/:id and /x/:key have one shape', () => {
    expect(routeShape('/x/:id')).toBe(routeShape('/x/:key'));
  });

  test('keeps static segments, so /x/:id and /y/:id differ', () => {
    expect(routeShape('/x/:id')).not.toBe(routeShape('/y/:id'));
  });

  test('erases every parameter of a nested path', () => {
    expect(routeShape('/users/:userId/posts/:postId')).toBe('/users/:/posts/:');
  });

  test('ignores case, as Express routing does', () => {
    expect(routeShape('/Orders/:id')).toBe(routeShape('/orders/:ID'));
  });
});

describe('routeShape of wildcards and quoted names', () => {
  test('erases wildcard names, so /files/*path and /files/*rest have one shape', () => {
    expect(routeShape('/files/*path')).toBe(routeShape('/files/*rest'));
  });

  test('erases quoted parameter names', () => {
    expect(routeShape('/x/:"id"')).toBe(routeShape('/x/:key'));
  });

  test('keeps a wildcard apart from a parameter', () => {
    expect(routeShape('/files/*path')).not.toBe(routeShape('/files/:path'));
  });
});

describe('toTablePath', () => {
  test('keeps parameters as they are', () => {
    expect(toTablePath('/users/:userId/posts/:postId')).toEqual({
      pattern: '/users/:userId/posts/:postId',
      wildcard: undefined,
    });
  });

  test('unquotes a quoted parameter name', () => {
    expect(toTablePath('/x/:"id"')).toEqual({ pattern: '/x/:id', wildcard: undefined });
  });

  test("turns a trailing wildcard into the table's, remembering its name", () => {
    expect(toTablePath('/files/*rest')).toEqual({ pattern: '/files/*', wildcard: 'rest' });
  });

  test('turns a trailing optional group into an optional parameter', () => {
    expect(toTablePath('/docs{/:page}')).toEqual({ pattern: '/docs/:page?', wildcard: undefined });
  });

  test.each([
    ['/files/*rest/more', 'a wildcard must end the path'],
    ['/x{/:a}/y', 'optional groups'],
    ['/x/:"not an id"', 'must be an identifier'],
  ])('refuses %p with a reason', (path, reason) => {
    expect(toTablePath(path)).toEqual(expect.stringContaining(reason));
  });
});
