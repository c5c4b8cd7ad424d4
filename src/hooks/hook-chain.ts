import type { Request } from 'express';
import { HookErrors } from '../errors/hook-errors';
import type { Context } from '../http/context';
import { isThenable } from '../http/thenable';
import type { PreparedHandler } from '../http/exchange';
import type { CanActivate, Interceptor } from './hook-types';

/**
 * Wraps a route's handler (its parameters and the method) in its guards and interceptors, once, at
 * boot: guards in order, each `true` going on and `false` answering 403; then interceptors,
 * outermost first, each `next()` running the rest. A route with neither gets its handler back
 * untouched, and pays nothing per request.
 *
 * @example
 * const run = composeHandler(route.handler, [authGuard], [timing]);
 */
export function composeHandler(
  handler: PreparedHandler,
  guards: readonly CanActivate[],
  interceptors: readonly Interceptor[],
): PreparedHandler {
  const inner = interceptors.length === 0 ? handler : intercepted(handler, interceptors);
  return guards.length === 0 ? inner : guarded(inner, guards);
}

function guarded(inner: PreparedHandler, guards: readonly CanActivate[]): PreparedHandler {
  // Guards that answer at once are checked without a promise; the first async one switches to them.
  const from = (ctx: Context, req: Request, start: number): unknown => {
    for (let index = start; index < guards.length; index++) {
      const verdict = (guards[index] as CanActivate).canActivate(ctx);
      if (isThenable(verdict)) {
        return Promise.resolve(verdict).then((resolved) => {
          refuseUnless(resolved);
          return from(ctx, req, index + 1);
        });
      }
      refuseUnless(verdict);
    }
    return inner(ctx, req);
  };
  return (ctx, req) => from(ctx, req, 0);
}

function refuseUnless(verdict: unknown): void {
  if (!verdict) throw HookErrors.forbidden();
}

function intercepted(handler: PreparedHandler, interceptors: readonly Interceptor[]): PreparedHandler {
  // `new Promise` runs its executor at once: a sync throw becomes a rejection `intercept` can catch.
  const callAt = (ctx: Context, req: Request, index: number): Promise<unknown> =>
    new Promise((resolve) => {
      const interceptor = interceptors[index];
      resolve(
        interceptor ? interceptor.intercept(ctx, () => callAt(ctx, req, index + 1)) : handler(ctx, req),
      );
    });
  return (ctx, req) => callAt(ctx, req, 0);
}
