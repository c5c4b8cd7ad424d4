// The table's formatting is internal to the CLI, so this unit test reaches into src/ directly.
import type { RouteDefinition } from '../../src/routing/route';
import { formatRouteTable } from '../../src/cli/route-listing';

function route(
  method: RouteDefinition['method'],
  path: string,
  source: string,
  name: string,
): RouteDefinition {
  return { method, path, source, name, handler: () => undefined };
}

describe('formatRouteTable', () => {
  test('aligns method, path, handler and name, one line per route, in the order given', () => {
    const table = formatRouteTable([
      route('GET', '/orders', 'OrderController.index', 'orders.index'),
      route('DELETE', '/orders/:id', 'OrderController.destroy', 'orders.destroy'),
      route('GET', '/', 'home', 'home'),
    ]);
    expect(table.split('\n')).toEqual([
      'GET     /orders      OrderController.index    orders.index',
      'DELETE  /orders/:id  OrderController.destroy  orders.destroy',
      'GET     /            home                     home',
    ]);
  });

  test('is empty for no routes', () => {
    expect(formatRouteTable([])).toBe('');
  });
});
