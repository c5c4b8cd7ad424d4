import type { Class } from '../container/token';
import type { ResourceAction } from './resource-table';

/** A query parameter a handler reads through `@Query(name, fallback)`. */
export interface QueryDoc {
  readonly name: string;
  readonly fallback?: string;
}

/**
 * What the OpenAPI document says about a route beyond its method and path, recorded when the route
 * is compiled; a route without one is documented from its method and path alone.
 *
 * @example
 * router.add({ method: 'GET', path: '/ping', handler, name: 'ping', source: 'ping', doc: { tag: 'Ping' } });
 */
export interface RouteDoc {
  /** Left out of the document, as the documentation's own routes are. */
  readonly hidden?: boolean;
  /** The group the operation is listed under: its controller. */
  readonly tag?: string;
  /** The resource action, whose conventional answers the operation gives. */
  readonly action?: ResourceAction;
  /** Whether a resource answers with JSON (an API resource) rather than HTML pages. */
  readonly isApi?: boolean;
  /** The class the request body is bound into. */
  readonly body?: Class;
  /** The class the successful answer's JSON body has. */
  readonly output?: Class;
  readonly query?: readonly QueryDoc[];
  /** The class a whole query string is bound into (`@Query() filter: OrderFilter`). */
  readonly queryClass?: Class;
}
