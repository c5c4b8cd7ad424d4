import { filterCatcher } from '../hooks/filters';
import { composeHandler } from '../hooks/hook-chain';
import { resolveRouteHooks, type GlobalHooks } from '../hooks/route-hooks';
import { prepareEndpoint, type Endpoint, type EndpointParts } from '../http/endpoint';
import type { PreparedHandler } from '../http/exchange';
import { corsPolicy, type CorsOptions, type CorsPolicy } from '../http/cors-policy';
import type { CorsRules } from '../http/cors-rules';
import { MetadataKey } from '../metadata/keys';
import { withResponseHeaders } from './response-headers';
import type { RouteDefinition } from './route';
import type { SseOptions } from '../http/event-stream';
import { answeringWithEvents } from '../http/event-stream-handler';
import { parsingAnswers } from '../http/answer-check';
import { classOutputPlan } from '../http/class-output-plan';
import { outputShaper, shapeOutput, type OutputOptions, type OutputShaper } from '../http/output-shaper';
import { isStandardSchema } from '../binding/standard-schema';
import type { Class } from '../container/token';

/** A route as a wrapper of its handler sees it: who declared it, and its decorators' metadata. */
export interface WrappedRoute {
  /** As boot errors name it: `OrderController.store (POST /orders)`. */
  readonly description: string;
  readonly metadata: ReadonlyMap<unknown, unknown> | undefined;
  /** Declared by a controller class (its decorators apply), rather than a function route or a module's own. */
  readonly isController?: boolean;
}

/**
 * What every route's endpoint is prepared with, decided once at boot: the application's global
 * hooks, what wraps a handler inside its middleware and outside its guards (a rate limit), and the
 * HTTP layer's parts.
 */
export interface EndpointSettings {
  readonly globals: GlobalHooks;
  /** Puts a route's handler behind its rate limit, if it has one; decided once per route. */
  readonly wrap: (route: WrappedRoute, handler: PreparedHandler) => PreparedHandler;
  readonly parts: EndpointParts;
  /** Told of each route with a `@Cors` of its own. */
  readonly cors: CorsRules;
}

const NO_METADATA: ReadonlyMap<unknown, unknown> = new Map();

/**
 * A route's endpoint, built once, when the route is added, ready to run: its handler inside its
 * guards and interceptors, behind its rate limit (after its middleware, before any guard), its
 * middleware, and its filters as one catcher.
 *
 * @example
 * table.add({ route, endpoint: routeEndpoint(route, settings) });
 */
export function routeEndpoint(
  route: RouteDefinition,
  { globals, wrap, parts, cors }: EndpointSettings,
): Endpoint {
  const { middleware, guards, interceptors, filters } = resolveRouteHooks(route.hooks, route.source, globals);
  const description = `${route.source} (${route.method} ${route.path})`;
  const metadata = route.hooks?.metadata ?? NO_METADATA;
  const shape = routeShaper(metadata);
  return prepareEndpoint(
    {
      route: { name: route.name, method: route.method, path: route.path },
      description,
      metadata,
      isProbe: metadata.get(MetadataKey.probeRoute) === true,
      middleware,
      call: wrap(
        { description, metadata, isController: route.hooks !== undefined },
        answering(
          composeHandler(withResponseHeaders(route.handler, metadata, description), guards, interceptors),
          { metadata, shape, description },
        ),
      ),
      catchError: filterCatcher(filters),
      shape,
      cors: ownCorsPolicy(route, metadata, cors),
    },
    parts,
  );
}

// A controller's `@Cors` replaces the application's policy for its routes; `@Cors(false)` leaves them none.
function ownCorsPolicy(
  route: RouteDefinition,
  metadata: ReadonlyMap<unknown, unknown>,
  rules: CorsRules,
): CorsPolicy | false | undefined {
  if (!metadata.has(MetadataKey.cors)) return undefined;
  rules.noteRoutePolicy();
  const options = metadata.get(MetadataKey.cors) as boolean | CorsOptions;
  return corsPolicy(options, `@Cors of ${route.source}`) ?? false;
}

// An `@Sse()` route streams what its handler (through its interceptors) gives; a route with
// `@Returns(schema)` has it parsed. Every other route is its handler alone: nothing per request.
function answering(
  handler: PreparedHandler,
  {
    metadata,
    shape,
    description,
  }: { metadata: ReadonlyMap<unknown, unknown>; shape: OutputShaper; description: string },
): PreparedHandler {
  const stream = metadata.get(MetadataKey.eventStream) as SseOptions | undefined;
  if (stream !== undefined) return answeringWithEvents(handler, stream);
  const returns = metadata.get(MetadataKey.returns);
  if (isStandardSchema(returns)) return parsingAnswers(handler, { schema: returns, shape, description });
  return handler;
}

// Decided at boot: the shaper with the route's `@SerializeOptions`, and the plan of the class it
// says it returns, made now rather than at its first answer.
function routeShaper(metadata: ReadonlyMap<unknown, unknown>): OutputShaper {
  const returns = metadata.get(MetadataKey.returns);
  if (typeof returns === 'function' && !isStandardSchema(returns)) classOutputPlan(returns as Class);
  const options = metadata.get(MetadataKey.serializeOptions) as OutputOptions | undefined;
  return options === undefined ? shapeOutput : outputShaper(options);
}
