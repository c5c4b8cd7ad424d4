import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Errors } from '../errors';
import type { RouteDefinition } from '../routing/route';
import { Context } from './context';
import type { ViewRenderer } from './views';

/**
 * Turns a route into the Express handler that runs it: builds the context, calls the handler
 * (sync or async), sends a returned value as JSON 200, and reports a handler that finished
 * without answering. Throws and rejections reach the error responder through Express 5, which
 * forwards both to `next`.
 */
export function adaptRoute(route: RouteDefinition, views: ViewRenderer): RequestHandler {
  const description = `${route.source} (${route.method} ${route.path})`;

  const finish = (ctx: Context, next: NextFunction, result: unknown): void => {
    if (ctx.isHandled) return;
    if (result === undefined) next(Errors.noResponse(description));
    else ctx.json(200, result);
  };

  return (req: Request, res: Response, next: NextFunction) => {
    const ctx = new Context(req, res, views);
    const result = route.handler(ctx);
    // Sync handlers finish at once: no promise and no extra tick on the hot path.
    if (isThenable(result)) return Promise.resolve(result).then((value) => finish(ctx, next, value));
    finish(ctx, next, result);
    return undefined;
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
