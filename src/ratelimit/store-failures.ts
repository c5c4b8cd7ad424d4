import { messageOf } from '../errors';
import type { Logger } from '../logging/logger';

// A store that is down fails every limited request: one line a minute says so without a flood.
const LOG_EVERY_MS = 60_000;

/**
 * Logs the failures of a rate limit store, at most one line a minute, each saying how many
 * failures the minute before it saw unlogged, and what limited requests get meanwhile.
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

  constructor(logger: Logger, { store, failClosed }: { store: string; failClosed: boolean }) {
    this.#logger = logger;
    this.#store = store;
    this.#message = failClosed
      ? 'rate limit store failed: limited routes answer 503 until it answers'
      : 'rate limit store failed: limited routes let requests through unlimited until it answers';
  }

  record(error: unknown): void {
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
