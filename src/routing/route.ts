import type { DeclaredHooks } from '../hooks/declared-hooks';
import type { Context } from '../http/context';
import type { PreparedHandler } from '../http/exchange';
import type { RouteDoc } from './route-doc';

/** The HTTP methods a route can answer; `ALL` answers every method. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'ALL';

/**
 * A function controller: it responds through `ctx`, or returns a value that is sent as JSON 200.
 *
 * @example
 * const hello: RouteHandler = (ctx) => ({ hello: ctx.query('name', 'world') });
 */
export type RouteHandler = (ctx: Context) => unknown;

/** One compiled route: what the router registers and `framework routes` prints. */
export interface RouteDefinition {
  readonly method: HttpMethod;
  readonly path: string;
  readonly handler: PreparedHandler;
  /** A stable name, such as `orders.show`. */
  readonly name: string;
  /** Who declared it, for error messages and logs, such as `OrderController.show`. */
  readonly source: string;
  /** What the OpenAPI document says about it beyond its method and path. */
  readonly doc?: RouteDoc;
  /** The API version the route serves (`@Version`); undefined: whatever version is asked. */
  readonly version?: string;
  /** For controller routes: the guards, interceptors, filters, middleware and metadata its decorators declare. */
  readonly hooks?: DeclaredHooks;
}
