import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Class } from '../container/token';
import { markHeadersObserved } from './held-headers';
import { isThenable } from './thenable';

/**
 * Middleware as a class, built through DI: `use` runs like an Express middleware function.
 *
 * @example
 * @Injectable()
 * class RequestId implements MiddlewareClass {
 *   use(req: Request, res: Response, next: NextFunction) { res.setHeader('X-Request-Id', randomUUID()); next(); }
 * }
 */
export interface MiddlewareClass {
  use(req: Request, res: Response, next: NextFunction): unknown;
}

/** What `app.use` takes: Express middleware, Express error middleware (four arguments), or a middleware class. */
export type MiddlewareEntry = RequestHandler | ErrorRequestHandler | Class<MiddlewareClass>;

/**
 * Runs `handlers` in order, each calling `next()` to go on; `done` gets the first error passed to
 * `next`, thrown, or rejected (as Express 5 treats a middleware's rejected promise), or nothing
 * once every handler has gone on.
 *
 * @example
 * runMiddleware(handlers, req, res, (error) => (error ? fail(error) : route()));
 */
export function runMiddleware(
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  done: (error?: unknown) => void,
): void {
  // Middleware may read the answer's headers once it is sent.
  markHeadersObserved(res);
  let index = 0;
  const next = (error?: unknown): void => {
    if (isError(error)) return done(error);
    const handler = handlers[index++];
    if (handler === undefined) return done();
    invoke(() => handler(req, res, next), next);
  };
  next();
}

/**
 * Runs Express error middleware in order with `error`; each may answer, or pass an error on with
 * `next(error)` (`next()` passes the same one). `done` gets the error no handler answered.
 *
 * @example
 * runErrorMiddleware(errorHandlers, error, req, res, (unanswered) => respond(unanswered));
 */
export function runErrorMiddleware(
  handlers: readonly ErrorRequestHandler[],
  error: unknown,
  req: Request,
  res: Response,
  done: (error: unknown) => void,
): void {
  markHeadersObserved(res);
  let index = 0;
  let current = error;
  const next = (passed?: unknown): void => {
    if (isError(passed)) current = passed;
    const handler = handlers[index++];
    if (handler === undefined) return done(current);
    invoke(() => handler(current, req, res, next), next);
  };
  next();
}

// Express's `next('route')` and `next('router')` skip routes; outside a router they mean go on.
function isError(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && value !== 'route' && value !== 'router';
}

function invoke(call: () => unknown, next: (error?: unknown) => void): void {
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    next(error ?? new Error('middleware threw a falsy value'));
    return;
  }
  if (isThenable(result)) {
    (result as Promise<unknown>).then(undefined, (error: unknown) =>
      next(error ?? new Error('middleware rejected with a falsy value')),
    );
  }
}
