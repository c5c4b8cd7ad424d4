import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { PreparedHandler } from '../http/exchange';
import type { Context } from '../http/context';
import { RateLimitErrors } from '../errors/rate-limit-errors';
import { settleWithin } from '../lifecycle/settle-within';
import type { BudgetLimiter } from './budget-store';
import type { KeyOf } from './client-key';
import { RateLimitUnavailableError } from './rate-limit-unavailable';
import type { StoreFailures } from './store-failures';

/** Everything one limited route needs per request, prepared at boot. */
export interface RouteLimit {
  /** The route, as errors name it. */
  readonly route: string;
  readonly limit: number;
  readonly windowS: number;
  readonly keyOf: KeyOf;
  readonly limiter: BudgetLimiter;
  /** How long the store may take; undefined for the memory store, which answers at once. */
  readonly timeoutMs: number | undefined;
  readonly failClosed: boolean;
  readonly failures: StoreFailures;
}

// What one call to the store came to: rate-limiter-flexible resolves with what is left, rejects
// with a RateLimiterRes when the budget is spent, and with an Error when the store failed.
type Spent =
  | { readonly outcome: 'allowed'; readonly left: RateLimiterRes }
  | { readonly outcome: 'refused'; readonly left: RateLimiterRes }
  | { readonly outcome: 'failed'; readonly error: unknown };

const isLeft = (value: unknown): value is RateLimiterRes =>
  typeof value === 'object' && value !== null && 'msBeforeNext' in value && !(value instanceof Error);

/**
 * Puts a route's handler (inside its guards and interceptors) behind its rate limit: each request
 * spends one of its key's budget first. Allowed, the answer carries `RateLimit-Policy` and
 * `RateLimit`; over the limit, 429 `{"error":"too many requests"}` with `Retry-After` too, and the
 * handler never runs. A store that fails or does not answer within `timeoutMs` lets the request
 * through (with `RateLimit-Policy` alone), or with `failClosed` refuses it with 503.
 *
 * @example
 * const call = limitRoute(composeHandler(handler, guards, interceptors), limit);
 */
export function limitRoute(handler: PreparedHandler, limit: RouteLimit): PreparedHandler {
  const { limiter, keyOf, timeoutMs, failClosed, failures } = limit;
  const policy = `${limit.limit};w=${limit.windowS}`;
  const state = (left: RateLimiterRes): string =>
    `limit=${limit.limit}, remaining=${left.remainingPoints}, reset=${secondsUntil(left.msBeforeNext)}`;
  const timedOut: Spent = {
    outcome: 'failed',
    error: new Error(`the store did not answer within ${timeoutMs} ms`),
  };

  const spend = (key: string): Promise<Spent> => {
    const spending = limiter.consume(key).then(
      (left): Spent => ({ outcome: 'allowed', left }),
      (rejection: unknown): Spent =>
        isLeft(rejection) ? { outcome: 'refused', left: rejection } : { outcome: 'failed', error: rejection },
    );
    return timeoutMs === undefined ? spending : settleWithin(spending, timeoutMs, () => timedOut);
  };

  const answer = (spent: Spent, ctx: Context): void => {
    if (spent.outcome === 'allowed') {
      ctx.header('RateLimit-Policy', policy);
      ctx.header('RateLimit', state(spent.left));
      return;
    }
    if (spent.outcome === 'refused') {
      throw RateLimitErrors.tooManyRequests({
        'Retry-After': String(secondsUntil(spent.left.msBeforeNext)),
        'RateLimit-Policy': policy,
        RateLimit: state(spent.left),
      });
    }
    failures.record(spent.error);
    if (failClosed) throw new RateLimitUnavailableError(limit.route, { cause: spent.error });
    ctx.header('RateLimit-Policy', policy);
  };

  return (ctx, req) =>
    spend(keyOf(ctx, req)).then((spent) => {
      answer(spent, ctx);
      return handler(ctx, req);
    });
}

// Whole seconds, at least one: `Retry-After: 0` would invite the client straight back.
function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
