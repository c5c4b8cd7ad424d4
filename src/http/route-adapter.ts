import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Errors } from '../errors';
import type { Logger } from '../logging/logger';
import type { RouteDefinition } from '../routing/route';
import { Context, type RouteRuntime } from './context';
import type { ViewRenderer } from './views';

/**
 * Turns a route into the Express handler that runs it: builds the context, calls the handler
 * (sync or async), sends a returned value as JSON, and passes a throw, a rejection or a handler
 * that never answered to the error responder.
 */
export function adaptRoute(route: RouteDefinition, views: ViewRenderer, logger: Logger): RequestHandler {
  const runtime: RouteRuntime = {
    views,
    logger,
    description: `${route.source} (${route.method} ${route.path})`,
  };

  const finish = (ctx: Context, res: Response, next: NextFunction, result: unknown): void => {
    if (ctx.hasResponded) return;
    // The status stays whatever the handler set through `ctx.res` (200 unless it did).
    if (result !== undefined) res.json(result);
    else if (!ctx.hasTakenOver) next(Errors.noResponse(runtime.description));
  };

  return (req: Request, res: Response, next: NextFunction) => {
    const ctx = new Context(req, res, runtime);
    const fail = (error: unknown): void => next(asError(error, runtime.description));
    let result: unknown;
    try {
      result = route.handler(ctx);
    } catch (error) {
      fail(error);
      return;
    }
    // Sync handlers finish at once: no promise and no extra tick on the hot path.
    if (isThenable(result)) {
      Promise.resolve(result)
        .then((value) => finish(ctx, res, next, value))
        .catch(fail);
    } else {
      finish(ctx, res, next, result);
    }
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

// Express reads a falsy `next(error)` as "no error" and the string 'route' as "skip this route":
// a handler that throws such a value must still end in a 500.
function asError(thrown: unknown, description: string): object {
  if (typeof thrown === 'object' && thrown !== null) return thrown;
  return new Error(`${description} threw ${String(thrown)}, which is not an Error`, { cause: thrown });
}
