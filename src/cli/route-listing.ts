import type { RouteDefinition } from '../routing/route';

/**
 * The routes as aligned columns (method, path, handler, name), one line per route, in the order
 * given: what `routes` prints.
 *
 * @example
 * formatRouteTable(app.router.routes());
 * // GET     /orders      OrderController.index  orders.index
 */
export function formatRouteTable(routes: readonly RouteDefinition[]): string {
  const rows = routes.map((route) => [route.method, route.path, route.source, route.name]);
  const widths = [0, 1, 2].map((column) => Math.max(0, ...rows.map((row) => (row[column] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
