import type * as Flexible from 'rate-limiter-flexible';

/** What one budget is: its name in the store, and how many requests per window it allows. */
export interface BudgetSettings {
  /** What every key of the budget starts with in the store: `keel:OrderController.store`. */
  readonly keyPrefix: string;
  readonly limit: number;
  readonly windowS: number;
}

/**
 * Spends one request of a key's budget: resolves with what is left when the request is allowed,
 * rejects with rate-limiter-flexible's `RateLimiterRes` when it is over the limit, and with an
 * `Error` when the store failed.
 */
export interface BudgetLimiter {
  consume(key: string): Promise<Flexible.RateLimiterRes>;
}

/** Where budgets are kept: the process's memory, PostgreSQL or Redis. */
export interface BudgetStore {
  /** As the log names the store. */
  readonly name: 'memory' | 'postgres' | 'redis';
  /** True for a store across the network, whose calls are bounded in time; memory answers at once. */
  readonly isRemote: boolean;
  limiter(budget: BudgetSettings): BudgetLimiter;
}

/** rate-limiter-flexible, loaded when an application first declares `RateLimitModule`. @example loadFlexible().RateLimiterMemory */
export function loadFlexible(): typeof Flexible {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load
  return require('rate-limiter-flexible') as typeof Flexible;
}

/** Budgets in this process only: each replica counts its own. @example memoryStore().limiter({ keyPrefix, limit: 5, windowS: 60 }) */
export function memoryStore(): BudgetStore {
  const { RateLimiterMemory } = loadFlexible();
  return {
    name: 'memory',
    isRemote: false,
    limiter: ({ keyPrefix, limit, windowS }) =>
      new RateLimiterMemory({ keyPrefix, points: limit, duration: windowS }),
  };
}

/**
 * Budgets in Redis, through the application's client: every replica with the same Redis shares
 * them. A client that is not connected fails at once rather than queueing the command.
 *
 * @example
 * redisStore(new Redis(process.env.REDIS_URL)).limiter({ keyPrefix, limit: 5, windowS: 60 });
 */
export function redisStore(client: object): BudgetStore {
  const { RateLimiterRedis } = loadFlexible();
  return {
    name: 'redis',
    isRemote: true,
    limiter: ({ keyPrefix, limit, windowS }) =>
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix,
        points: limit,
        duration: windowS,
        rejectIfRedisNotReady: true,
      }),
  };
}
