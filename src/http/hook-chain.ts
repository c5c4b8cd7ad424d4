import type { CanActivate, Interceptor } from '../hooks/hook-types';
import type { RouteHandler } from '../routing/route';
import { HttpError } from './http-error';
import { isThenable } from './thenable';

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
  handler: RouteHandler,
  guards: readonly CanActivate[],
  interceptors: readonly Interceptor[],
): RouteHandler {
  const inner = interceptors.length === 0 ? handler : intercepted(handler, interceptors);
  return guards.length === 0 ? inner : guarded(inner, guards);
}

function guarded(inner: RouteHandler, guards: readonly CanActivate[]): RouteHandler {
  // Guards that answer at once are checked without a promise; the first async one switches to them.
  const from = (ctx: Parameters<RouteHandler>[0], start: number): unknown => {
    for (let index = start; index < guards.length; index++) {
      const verdict = (guards[index] as CanActivate).canActivate(ctx);
      if (isThenable(verdict)) {
        return Promise.resolve(verdict).then((resolved) => {
          refuseUnless(resolved);
          return from(ctx, index + 1);
        });
      }
      refuseUnless(verdict);
    }
    return inner(ctx);
  };
  return (ctx) => from(ctx, 0);
}

function refuseUnless(verdict: unknown): void {
  if (!verdict) throw new HttpError(403, 'forbidden');
}

function intercepted(handler: RouteHandler, interceptors: readonly Interceptor[]): RouteHandler {
  // `new Promise` runs its executor at once: a sync throw becomes a rejection `intercept` can catch.
  const callAt = (ctx: Parameters<RouteHandler>[0], index: number): Promise<unknown> =>
    new Promise((resolve) => {
      const interceptor = interceptors[index];
      resolve(interceptor ? interceptor.intercept(ctx, () => callAt(ctx, index + 1)) : handler(ctx));
    });
  return (ctx) => callAt(ctx, 0);
}
