import type { Request, Response } from 'express';
import { Errors } from '../errors';
import type { Logger } from '../logging/logger';
import type { RouteDefinition } from '../routing/route';
import type { Endpoint } from '../routing/route-table';
import { Context, type RouteRuntime } from './context';
import type { ErrorPages } from './error-pages';
import { runFilters, type FailRequest } from './filters';
import { composeHandler } from './hook-chain';
import { runMiddleware } from './middleware';
import { resolveRouteHooks, type GlobalHooks } from './route-hooks';
import { sendJson } from './send';
import { isThenable } from './thenable';
import type { ViewRenderer } from './views';

/** What every endpoint shares: the views, the logger, the global hooks, and the one way to the error responder. */
export interface EndpointParts {
  readonly views: ViewRenderer;
  readonly pages: ErrorPages;
  readonly logger: Logger;
  readonly globals: GlobalHooks;
  readonly fail: FailRequest;
  readonly urlFor: RouteRuntime['urlFor'];
  readonly locals: object;
  readonly loadHelpers: () => void;
}

const NO_METADATA: ReadonlyMap<unknown, unknown> = new Map();

/**
 * Prepares the endpoint of one route, once, when the route is added: per request it builds the
 * context, runs the route's middleware, guards and interceptors around the handler (sync or async),
 * sends a returned value as JSON, and hands a throw, a rejection or a handler that never answered to
 * the route's filters, then to `fail`. Hooks a route does not have cost it nothing.
 *
 * @example
 * router = new Router({ prepare: (route) => prepareEndpoint(route, parts), ... });
 */
export function prepareEndpoint(route: RouteDefinition, parts: EndpointParts): Endpoint {
  const runtime: RouteRuntime = {
    route: { name: route.name, method: route.method, path: route.path },
    urlFor: parts.urlFor,
    locals: parts.locals,
    loadHelpers: parts.loadHelpers,
    views: parts.views,
    pages: parts.pages,
    logger: parts.logger,
    description: `${route.source} (${route.method} ${route.path})`,
    metadata: route.hooks?.metadata ?? NO_METADATA,
  };
  const { fail } = parts;
  const { middleware, guards, interceptors, filters } = resolveRouteHooks(route, parts.globals);
  // Middleware is written against Express's request and response.
  if (middleware.length > 0) parts.loadHelpers();
  const run = composeHandler(route.handler, guards, interceptors);

  const failed = (thrown: unknown, ctx: Context, req: Request, res: Response): void => {
    const error = asError(thrown, runtime.description);
    if (filters.length === 0) fail(error, req, res);
    else runFilters(error, { filters, ctx, req, res, fail });
  };

  const finish = (ctx: Context, req: Request, res: Response, result: unknown): void => {
    if (ctx.hasResponded) return;
    if (result === undefined) {
      if (!ctx.hasTakenOver) failed(Errors.noResponse(runtime.description), ctx, req, res);
      return;
    }
    // The status stays whatever the handler set through `ctx.res` (200 unless it did). A value
    // JSON cannot hold (a BigInt, a cycle) fails here, and is a 500 like any other throw.
    try {
      sendJson(res, res.statusCode, result);
    } catch (error) {
      failed(error, ctx, req, res);
    }
  };

  const execute = (ctx: Context, req: Request, res: Response): void => {
    let result: unknown;
    try {
      result = run(ctx);
    } catch (error) {
      failed(error, ctx, req, res);
      return;
    }
    // Sync handlers finish at once: no promise and no extra tick on the hot path.
    if (isThenable(result)) {
      Promise.resolve(result).then(
        (value) => finish(ctx, req, res, value),
        (error: unknown) => failed(error, ctx, req, res),
      );
    } else {
      finish(ctx, req, res, result);
    }
  };

  return {
    route,
    handle(incoming, outgoing, params) {
      // The dispatcher gives endpoints only requests and responses it has equipped with Express's helpers.
      const req = incoming as Request;
      const res = outgoing as Response;
      req.params = params;
      const ctx = new Context(req, res, runtime);
      if (middleware.length === 0) return execute(ctx, req, res);
      runMiddleware(middleware, req, res, (error) => {
        if (error) failed(error, ctx, req, res);
        else execute(ctx, req, res);
      });
    },
    runMiddleware:
      middleware.length === 0
        ? undefined
        : (incoming, outgoing, done) =>
            runMiddleware(middleware, incoming as Request, outgoing as Response, done),
  };
}

// A handler may throw anything, `undefined` and strings included: it must still end in a 500 that
// names the route.
function asError(thrown: unknown, description: string): object {
  if (typeof thrown === 'object' && thrown !== null) return thrown;
  return new Error(`${description} threw ${String(thrown)}, which is not an Error`, { cause: thrown });
}
