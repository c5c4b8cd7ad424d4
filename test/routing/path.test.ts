// The path functions are internal to the router, so this unit test reaches into src/ directly.
import { compareSpecificity, joinPath, routeShape } from '../../src/routing/path';

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

describe('compareSpecificity', () => {
  test('puts a static segment before a parameter at the same position', () => {
    expect(compareSpecificity('/x/create', '/x/:id')).toBeLessThan(0);
    expect(compareSpecificity('/x/:id', '/x/create')).toBeGreaterThan(0);
  });

  test('puts a parameter before a wildcard at the same position', () => {
    expect(compareSpecificity('/files/:name', '/files/*path')).toBeLessThan(0);
    expect(compareSpecificity('/files/*path', '/files/:name')).toBeGreaterThan(0);
  });

  test('compares equal for paths of the same shape, so a stable sort keeps their order', () => {
    expect(compareSpecificity('/x/:id', '/y/:key')).toBe(0);
    expect(compareSpecificity('/x', '/x')).toBe(0);
  });

  test('decides at the first segment that differs in kind', () => {
    expect(compareSpecificity('/x/:id/edit', '/x/create/:step')).toBeGreaterThan(0);
  });

  test('sorting puts /x/create before /x/:id, whatever the declared order', () => {
    const sorted = ['/x/:id', '/x/:id/edit', '/x', '/x/create'].sort(compareSpecificity);
    expect(sorted.indexOf('/x/create')).toBeLessThan(sorted.indexOf('/x/:id'));
  });

  test('sorting puts /p/popular before /p/:id with /p declared between them', () => {
    const sorted = ['/p/:id', '/p', '/p/popular'].sort(compareSpecificity);
    expect(sorted.indexOf('/p/popular')).toBeLessThan(sorted.indexOf('/p/:id'));
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

describe('compareSpecificity with prefixes and optional groups', () => {
  test('puts a segment with a static prefix before a bare parameter', () => {
    expect(['/:slug', '/docs{/:page}'].sort(compareSpecificity)).toEqual(['/docs{/:page}', '/:slug']);
  });

  test('puts a fully static segment before one with a static prefix', () => {
    expect(['/files/file-:id', '/files/file-new'].sort(compareSpecificity)).toEqual([
      '/files/file-new',
      '/files/file-:id',
    ]);
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
