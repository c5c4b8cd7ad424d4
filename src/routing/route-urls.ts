import { RoutingErrors } from '../errors/routing-errors';
import type { RouteParams, RouteQuery } from '../http/route-info';
import type { RouteDefinition } from './route';

// `:id`, `:"quoted"`, a trailing `*rest`, and a trailing optional `{/:page}`.
const OPTIONAL_GROUP = /\{\/:([A-Za-z_$][\w$]*)\}$/;
const NAMED_SEGMENT = /([:*])([A-Za-z_$][\w$]*|"(?:[^"\\]|\\.)*")/g;

/**
 * The paths of named routes, and how to fill them in: what `urlFor` reads. Every route is known by
 * its name (`orders.show`); a name given to two different paths is a boot error naming both.
 *
 * @example
 * urls.add(route);
 * urls.urlFor('orders.show', { id: 7 }, { tab: 'items' }); // '/orders/7?tab=items'
 */
export class RouteUrls {
  readonly #byName = new Map<string, RouteDefinition>();

  /** Records the routes' names; throws before recording any when one clashes. @example urls.add(...routes) */
  add(routes: readonly RouteDefinition[]): void {
    const batch = new Map<string, RouteDefinition>();
    for (const route of routes) {
      const known = this.#byName.get(route.name) ?? batch.get(route.name);
      if (known && known.path !== route.path)
        throw RoutingErrors.routeNameConflict(route.name, known.source, route.source);
      if (!known) batch.set(route.name, route);
    }
    for (const [name, route] of batch) this.#byName.set(name, route);
  }

  /**
   * The path of the route named `name` with `params` percent-encoded in place and `query` appended.
   * An unknown name or a missing parameter throws an error naming it.
   * @example urls.urlFor('orders.edit', { id: 'a/b c' }) // '/orders/a%2Fb%20c/edit'
   */
  urlFor(name: string, params: RouteParams = {}, query: RouteQuery = {}): string {
    const route = this.#byName.get(name);
    if (!route) throw RoutingErrors.unknownRouteName(name, [...this.#byName.keys()]);
    const value = (param: string): string => {
      const given = params[param];
      if (given === undefined) throw RoutingErrors.missingRouteParam(name, route.path, param);
      return String(given);
    };
    const path = route.path
      .replace(OPTIONAL_GROUP, (_group, param: string) =>
        params[param] === undefined ? '' : `/${encodeURIComponent(value(param))}`,
      )
      .replace(NAMED_SEGMENT, (_whole, kind: string, raw: string) => {
        const param = raw.replace(/^"|"$/g, '');
        // A wildcard keeps its slashes: each segment is encoded on its own.
        if (kind === '*') return value(param).split('/').map(encodeURIComponent).join('/');
        return encodeURIComponent(value(param));
      });
    return path + queryString(query);
  }
}

function queryString(query: RouteQuery): string {
  const search = new URLSearchParams();
  for (const [name, given] of Object.entries(query)) {
    if (given === undefined) continue;
    for (const entry of Array.isArray(given) ? given : [given]) search.append(name, String(entry));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
