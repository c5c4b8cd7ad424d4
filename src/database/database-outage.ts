import { messageOf } from '../errors/describe-value';
import type { Logger } from '../logging/logger';
import { isDatabaseUnavailable } from './database-unavailable';

/** What else happens when an outage starts. */
export interface OutageHooks {
  /** Runs once per outage, as it is detected: the pool retires its idle connections. */
  readonly onStart?: () => void;
}

/**
 * Follows whether the database answers, from what its connections see, and logs each outage twice:
 * once when the first request meets it, once when the database answers again. Requests in between
 * are answered 503 without a line each, so an outage under load does not flood the log.
 *
 * @example
 * const outage = new DatabaseOutage(logger, 'postgres', { onStart: () => retireIdleConnections(dataSource) });
 * outage.observe(error); // after a query failed
 * outage.observe(undefined); // after a query succeeded
 */
export class DatabaseOutage {
  readonly #logger: Logger;
  readonly #db: string;
  #startedAt: number | undefined;
  #failures = 0;
  readonly #hooks: OutageHooks;

  constructor(logger: Logger, db: string, hooks: OutageHooks = {}) {
    this.#logger = logger;
    this.#db = db;
    this.#hooks = hooks;
  }

  /** True between a connection-level failure and the next query the database answers. */
  get isOngoing(): boolean {
    return this.#startedAt !== undefined;
  }

  /**
   * Takes the outcome of one query or connection attempt: `undefined` when the database answered,
   * else the error. Errors of the query itself (a syntax error, a constraint) say nothing of the
   * database's availability and are ignored.
   */
  observe(error: unknown): void {
    if (error === undefined || error === null) return this.#answered();
    if (!isDatabaseUnavailable(error)) return;
    this.#failures += 1;
    if (this.#startedAt !== undefined) return;
    this.#startedAt = performance.now();
    this.#logger.error(
      { db: this.#db, reason: messageOf(error) },
      'database unavailable: requests that need it answer 503 until it returns',
    );
    this.#hooks.onStart?.();
  }

  #answered(): void {
    if (this.#startedAt === undefined) return;
    const outageMs = Math.round(performance.now() - this.#startedAt);
    this.#logger.info({ db: this.#db, outageMs, failures: this.#failures }, 'database available again');
    this.#startedAt = undefined;
    this.#failures = 0;
  }
}
