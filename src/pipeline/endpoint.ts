import type { Request, Response } from 'express';
import { HandlerErrors } from '../http/handler-errors';
import { composeHandler } from '../hooks/hook-chain';
import { resolveRouteHooks, type GlobalHooks } from '../hooks/route-hooks';
import type { Logger } from '../logging/logger';
import type { RouteDefinition } from '../routing/route';
import type { Endpoint } from '../routing/route-table';
import type { RouteRuntime } from '../http/context';
import type { ErrorPages } from '../http/error-pages';
import { Exchange } from '../http/exchange';
import { runMiddleware } from '../http/middleware';
import { sendJson } from '../http/send';
import { isThenable } from '../http/thenable';
import type { ViewRenderer } from '../http/views';

/** What every endpoint shares: the views, the logger, the global hooks, and the route URLs. */
export interface EndpointParts {
  readonly views: ViewRenderer;
  readonly pages: ErrorPages;
  readonly logger: Logger;
  readonly globals: GlobalHooks;
  readonly urlFor: RouteRuntime['urlFor'];
  readonly locals: object;
  readonly loadHelpers: () => void;
}

const NO_METADATA: ReadonlyMap<unknown, unknown> = new Map();

/**
 * Prepares the endpoint of one route, once, when the route is added: per request it opens the
 * exchange (the context), runs the route's middleware, guards and interceptors around the handler
 * (sync or async), and sends a returned value as JSON. It catches nothing: a throw, a rejection or
 * a handler that never answered leaves `run` for the dispatcher's one error path, which starts with
 * the `filters` given here. Hooks a route does not have cost it nothing.
 *
 * @example
 * router.add(route); // the router calls prepareEndpoint(route, parts) through its `prepare`
 */
export function prepareEndpoint(route: RouteDefinition, parts: EndpointParts): Endpoint {
  const description = `${route.source} (${route.method} ${route.path})`;
  const runtime: RouteRuntime = {
    route: { name: route.name, method: route.method, path: route.path },
    urlFor: parts.urlFor,
    locals: parts.locals,
    loadHelpers: parts.loadHelpers,
    views: parts.views,
    pages: parts.pages,
    logger: parts.logger,
    description,
    metadata: route.hooks?.metadata ?? NO_METADATA,
  };
  const { middleware, guards, interceptors, filters } = resolveRouteHooks(
    route.hooks,
    route.source,
    parts.globals,
  );
  // Middleware is written against Express's request and response.
  if (middleware.length > 0) parts.loadHelpers();
  const call = composeHandler(route.handler, guards, interceptors);

  const finish = (exchange: Exchange, result: unknown): void => {
    if (exchange.hasResponded) return;
    if (result === undefined) {
      if (!exchange.isTakenOver) throw HandlerErrors.noResponse(description);
      return;
    }
    // The status stays whatever the handler set through `ctx.res` (200 unless it did). A value
    // JSON cannot hold (a BigInt, a cycle) throws here, and is a 500 like any other throw.
    sendJson(exchange.res, exchange.res.statusCode, result);
  };

  const execute = (exchange: Exchange): Promise<void> | undefined => {
    const result = call(exchange.ctx, exchange.req);
    // Sync handlers finish at once: no promise and no extra tick on the hot path.
    if (isThenable(result)) return Promise.resolve(result).then((value) => finish(exchange, value));
    finish(exchange, result);
    return undefined;
  };

  return {
    route,
    filters,
    open(incoming, outgoing, params) {
      // The dispatcher gives endpoints only requests and responses it has equipped with Express's helpers.
      const req = incoming as Request;
      req.params = params;
      return new Exchange(req, outgoing as Response, runtime);
    },
    run(exchange) {
      if (middleware.length === 0) return execute(exchange);
      return new Promise<void>((resolve, reject) => {
        runMiddleware(middleware, exchange.req, exchange.res, (error) => (error ? reject(error) : resolve()));
      }).then(() => execute(exchange));
    },
    runMiddleware:
      middleware.length === 0
        ? undefined
        : (incoming, outgoing, done) =>
            runMiddleware(middleware, incoming as Request, outgoing as Response, done),
  };
}
