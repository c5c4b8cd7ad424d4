import type { Class } from '../container/token';
import type { HookEntry, PipeTransform } from '../hooks/hook-types';
import type { ResourceAction } from './resource-table';
import type { StandardSchemaV1 } from '../binding/standard-schema';

/** A query parameter a handler reads through `@Query(name, fallback, ...pipes)`. */
export interface QueryDoc {
  readonly name: string;
  readonly fallback?: string;
  /** The pipes its value goes through: `ParseIntPipe` makes it an integer. */
  readonly pipes?: readonly HookEntry<PipeTransform>[];
}

/** A path parameter a handler reads through `@Param(name, ...pipes)` with at least one pipe or a schema. */
export interface ParamDoc {
  readonly name: string;
  readonly pipes: readonly HookEntry<PipeTransform>[];
  /** The Standard Schema that validates it (`@Param('id', schema)`). */
  readonly schema?: StandardSchemaV1;
}

/** An answer a route documents itself: what it means, and the JSON Schema of its body. */
export interface RouteAnswer {
  readonly description: string;
  readonly schema?: Readonly<Record<string, unknown>>;
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
  readonly output?: Class | undefined;
  /** The Standard Schema the successful answer's JSON body is parsed by (`@Returns(schema)`). */
  readonly outputSchema?: StandardSchemaV1;
  readonly query?: readonly QueryDoc[];
  /** The request headers it reads through `@Headers(name, fallback, ...pipes)`. */
  readonly headers?: readonly QueryDoc[];
  /** The cookies it reads through `@Cookies(name)`. */
  readonly cookies?: readonly QueryDoc[];
  /** The path parameters read through pipes; the others are strings. */
  readonly params?: readonly ParamDoc[];
  /** The class a whole query string is bound into (`@Query() filter: OrderFilter`). */
  readonly queryClass?: Class;
  /** The Standard Schema the request body is validated by (`@Body(schema)`). */
  readonly bodySchema?: StandardSchemaV1;
  /** The Standard Schema a whole query string is validated by (`@Query(schema)`). */
  readonly querySchema?: StandardSchemaV1;
  /** The route answers with Server-Sent Events (`@Sse()`): `text/event-stream`. */
  readonly isEventStream?: boolean;
  /** Answers, by status, that the route states itself (the health routes' bodies); they replace the derived ones. */
  readonly answers?: Readonly<Record<number, RouteAnswer>>;
}
