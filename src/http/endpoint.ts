import type { Request, Response } from 'express';
import { Errors } from '../errors';
import type { Logger } from '../logging/logger';
import type { RouteDefinition } from '../routing/route';
import type { Endpoint } from '../routing/route-table';
import { Context, type RouteRuntime } from './context';
import { sendJson } from './send';
import type { ViewRenderer } from './views';

/** What every endpoint shares: the views, the logger, and the one way to the error responder. */
export interface EndpointParts {
  readonly views: ViewRenderer;
  readonly logger: Logger;
  readonly fail: (error: unknown, req: Request, res: Response) => void;
}

/**
 * Prepares the endpoint of one route, once, when the route is added: per request it builds the
 * context, calls the handler (sync or async), sends a returned value as JSON, and hands a throw, a
 * rejection or a handler that never answered to `fail`.
 *
 * @example
 * router = new Router({ prepare: (route) => prepareEndpoint(route, parts), ... });
 */
export function prepareEndpoint(route: RouteDefinition, parts: EndpointParts): Endpoint {
  const runtime: RouteRuntime = {
    views: parts.views,
    logger: parts.logger,
    description: `${route.source} (${route.method} ${route.path})`,
  };
  const { fail } = parts;

  const finish = (ctx: Context, req: Request, res: Response, result: unknown): void => {
    if (ctx.hasResponded) return;
    if (result === undefined) {
      if (!ctx.hasTakenOver) fail(Errors.noResponse(runtime.description), req, res);
      return;
    }
    // The status stays whatever the handler set through `ctx.res` (200 unless it did). A value
    // JSON cannot hold (a BigInt, a cycle) fails here, and is a 500 like any other throw.
    try {
      sendJson(res, res.statusCode, result);
    } catch (error) {
      fail(error, req, res);
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
      let result: unknown;
      try {
        result = route.handler(ctx);
      } catch (error) {
        fail(asError(error, runtime.description), req, res);
        return;
      }
      // Sync handlers finish at once: no promise and no extra tick on the hot path.
      if (isThenable(result)) {
        Promise.resolve(result).then(
          (value) => finish(ctx, req, res, value),
          (error: unknown) => fail(asError(error, runtime.description), req, res),
        );
      } else {
        finish(ctx, req, res, result);
      }
    },
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

// A handler may throw anything, `undefined` and strings included: it must still end in a 500 that
// names the route.
function asError(thrown: unknown, description: string): object {
  if (typeof thrown === 'object' && thrown !== null) return thrown;
  return new Error(`${description} threw ${String(thrown)}, which is not an Error`, { cause: thrown });
}
