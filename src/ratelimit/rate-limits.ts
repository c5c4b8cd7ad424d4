import type { PreparedHandler } from '../http/exchange';
import type { Logger } from '../logging/logger';
import { MetadataKey } from '../metadata/keys';
import type { BudgetLimiter, BudgetStore } from './budget-store';
import { clientKey } from './client-key';
import { RateLimitErrors } from '../errors/rate-limit-errors';
import type { RateLimitOptions, RateLimitRecord } from './rate-limit-options';
import { limitRoute } from './route-limit';
import { StoreFailures, type StoreFailureListener } from './store-failures';

/** A route as rate limits see it: who declared it, and its decorators' metadata. */
export interface LimitableRoute {
  /** As boot errors name it: `OrderController.store (POST /orders)`. */
  readonly description: string;
  readonly metadata: ReadonlyMap<unknown, unknown> | undefined;
}

/** How the module's options came out, checked. */
export interface RateLimitSettings {
  readonly failClosed: boolean;
  readonly timeoutMs: number;
  readonly keyPrefix: string;
  /** The named limits, each checked already. */
  readonly limits: ReadonlyMap<string, RateLimitOptions>;
}

/**
 * The application's rate limits: at boot, for each route with `@RateLimit`, its limiter (one per
 * budget, so that the routes of a limited class, or of one named limit, share theirs) and its
 * handler behind it; routes without one get their handler back untouched.
 *
 * @example
 * const call = rateLimits.limit(route, composeHandler(handler, guards, interceptors));
 */
export class RateLimits {
  readonly #store: BudgetStore;
  readonly #settings: RateLimitSettings;
  readonly #failures: StoreFailures;
  readonly #limiters = new Map<string, BudgetLimiter>();

  constructor(
    store: BudgetStore,
    settings: RateLimitSettings,
    logger: Logger,
    listeners?: () => readonly StoreFailureListener[],
  ) {
    this.#store = store;
    this.#settings = settings;
    const { failClosed } = settings;
    this.#failures = new StoreFailures(logger, { store: store.name, failClosed, listeners });
  }

  /** `handler` behind the route's rate limit, or as it is when the route has none. @example rateLimits.limit(route, handler) */
  readonly limit = (route: LimitableRoute, handler: PreparedHandler): PreparedHandler => {
    const record = rateLimitOf(route);
    if (record === undefined) return handler;
    const { limit, windowS, key = 'ip' } = this.#optionsOf(record, route.description);
    const { failClosed, timeoutMs, keyPrefix } = this.#settings;
    // A named limit is one budget wherever it is used: `@RateLimit('api-writes')` on three routes.
    const budget = typeof record.limit === 'string' ? `limit:${record.limit}` : record.budget;
    const budgetKey = `${keyPrefix}:${budget}`;
    let limiter = this.#limiters.get(budgetKey);
    if (!limiter) {
      limiter = this.#store.limiter({ keyPrefix: budgetKey, limit, windowS });
      this.#limiters.set(budgetKey, limiter);
    }
    return limitRoute(handler, {
      route: route.description,
      limit,
      windowS,
      keyOf: clientKey(key, route.description),
      limiter,
      timeoutMs: this.#store.isRemote ? timeoutMs : undefined,
      failClosed,
      failures: this.#failures,
    });
  };

  #optionsOf({ limit }: RateLimitRecord, route: string): RateLimitOptions {
    if (typeof limit !== 'string') return checkLimit(limit, `the @RateLimit of ${route}`);
    const named = this.#settings.limits.get(limit);
    if (!named) throw RateLimitErrors.unknownLimit(route, limit, [...this.#settings.limits.keys()]);
    return named;
  }
}

/**
 * What an application without `RateLimitModule` does with a route: a route with `@RateLimit` is a
 * boot error, any other keeps its handler.
 *
 * @example
 * const call = withoutRateLimits(route, handler);
 */
export function withoutRateLimits(route: LimitableRoute, handler: PreparedHandler): PreparedHandler {
  if (rateLimitOf(route) !== undefined) throw RateLimitErrors.noRateLimitModule(route.description);
  return handler;
}

/** The `@RateLimit` a route has (its method's, else its class's), if any. @example rateLimitOf(route) */
export function rateLimitOf(route: { readonly metadata: ReadonlyMap<unknown, unknown> | undefined }) {
  return route.metadata?.get(MetadataKey.rateLimit) as RateLimitRecord | undefined;
}

/**
 * `options` when its limit and window are positive integers and its key `'ip'` or a function; a
 * boot error naming `where` (`the @RateLimit of OrderController.store (POST /orders)`) otherwise.
 *
 * @example
 * checkLimit({ limit: 5, windowS: 60 }, "RateLimitModule.forRoot's limits.login");
 */
export function checkLimit(options: RateLimitOptions, where: string): RateLimitOptions {
  if (typeof options !== 'object' || options === null) {
    throw RateLimitErrors.invalidRateLimit(where, 'options', options, '{ limit, windowS, key? }');
  }
  for (const option of ['limit', 'windowS'] as const) {
    const value = options[option];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw RateLimitErrors.invalidRateLimit(where, option, value, 'a positive integer');
    }
  }
  const { key } = options;
  if (key !== undefined && key !== 'ip' && typeof key !== 'function') {
    throw RateLimitErrors.invalidRateLimit(where, 'key', key, `'ip' or a function (ctx) => string`);
  }
  return options;
}
