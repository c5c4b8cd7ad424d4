import { InjectionToken } from '../container/token';
import { messageOf } from '../errors/describe-value';
import type { Logger } from '../logging/logger';

/** Told of every failure of the rate limit store named `store` (`postgres`, `redis`). */
export type StoreFailureListener = (store: string) => void;

/**
 * Providers under this token hear every failure of the rate limit store, logged or not
 * (`MetricsModule` counts them as `keel_rate_limit_store_failures_total{store}`). @internal
 *
 * @example
 * providers: [{ provide: STORE_FAILURE_LISTENER, useFactory: countStoreFailures, inject: [Metrics] }]
 */
export const STORE_FAILURE_LISTENER = new InjectionToken<StoreFailureListener>('STORE_FAILURE_LISTENER', {
  multi: true,
});

// A store that is down fails every limited request: one line a minute says so without a flood.
const LOG_EVERY_MS = 60_000;

/**
 * Logs the failures of a rate limit store, at most one line a minute, each saying how many
 * failures the minute before it saw unlogged, and what limited requests get meanwhile; tells each
 * of `listeners` (read at the first failure, once every provider exists) of every one.
 *
 * @example
 * const failures = new StoreFailures(logger, { store: 'redis', failClosed: false });
 * failures.record(error);
 */
export class StoreFailures {
  readonly #logger: Logger;
  readonly #store: string;
  readonly #message: string;
  #loggedAt = -Infinity;
  #unlogged = 0;
  #listeners: (() => readonly StoreFailureListener[]) | readonly StoreFailureListener[];

  constructor(
    logger: Logger,
    {
      store,
      failClosed,
      listeners = () => [],
    }: { store: string; failClosed: boolean; listeners?: () => readonly StoreFailureListener[] },
  ) {
    this.#logger = logger;
    this.#store = store;
    this.#listeners = listeners;
    this.#message = failClosed
      ? 'rate limit store failed: limited routes answer 503 until it answers'
      : 'rate limit store failed: limited routes let requests through unlimited until it answers';
  }

  record(error: unknown): void {
    if (typeof this.#listeners === 'function') this.#listeners = this.#listeners();
    for (const listener of this.#listeners) listener(this.#store);
    const now = performance.now();
    if (now - this.#loggedAt < LOG_EVERY_MS) {
      this.#unlogged += 1;
      return;
    }
    this.#logger.error(
      { store: this.#store, reason: messageOf(error), unloggedFailures: this.#unlogged },
      this.#message,
    );
    this.#loggedAt = now;
    this.#unlogged = 0;
  }
}
