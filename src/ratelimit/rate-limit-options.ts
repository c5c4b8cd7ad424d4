import type { Context } from '../http/context';

/** Whose budget a request spends: `'ip'`, the client's address, or a function of the request. */
export type RateLimitKey = 'ip' | ((ctx: Context) => string);

/** What `@RateLimit` takes: `limit` requests per `windowS` seconds, per key. */
export interface RateLimitOptions {
  /** How many requests a key may make in one window; a positive integer. */
  readonly limit: number;
  /** The window's length in seconds; a positive integer. */
  readonly windowS: number;
  /** Whose budget it is: `'ip'` (the default, honouring Express's `trust proxy`) or `(ctx) => string`. */
  readonly key?: RateLimitKey;
}

/**
 * Where the budgets are kept: in the process, in the application's PostgreSQL, or in the Redis of
 * the client `redis` gives (ioredis, or node-redis 4 and later), read once at boot.
 */
export type RateLimitStore = 'memory' | 'postgres' | { readonly redis: () => object };

/** Options of `RateLimitModule.forRoot`; all optional. */
export interface RateLimitModuleOptions {
  /**
   * `'memory'` (the default): each process keeps its own budgets. `'postgres'`: in the application's
   * own database (`DatabaseModule`), in a table keel creates, shared by every replica. `{ redis }`:
   * in the Redis the function's client talks to, shared by every replica.
   */
  readonly store?: RateLimitStore;
  /** When the store fails or does not answer in time: `false` (the default) lets requests through; `true` answers 503. */
  readonly failClosed?: boolean;
  /** How long one request waits for the store before it counts as failed. Default `1000`. */
  readonly timeoutMs?: number;
  /** What every key in the store starts with, so that applications sharing a store keep apart. Default `'keel'`. */
  readonly keyPrefix?: string;
  /**
   * Limits by name, for `@RateLimit('name')`: what the application's configuration decides at boot
   * (a decorator's own options are fixed when its class is defined).
   */
  readonly limits?: Readonly<Record<string, RateLimitOptions>>;
}

/** The record `@RateLimit` leaves on a class or a method, read once at boot. */
export interface RateLimitRecord {
  /** The limit itself, or the name of one of `RateLimitModule.forRoot`'s `limits`. */
  readonly limit: RateLimitOptions | string;
  /**
   * Whose budget the routes spend: the class's name for a limit on a class (its routes share one
   * budget), `Class.method` for a limit on a method (its own).
   */
  readonly budget: string;
}
