import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '../container/lifecycle';
import type { Logger } from '../logging/logger';
import { initializationSettled, initializeOnce } from './initialize-once';

/** The backoff between connection attempts: the first delay, doubled after each failure up to the cap. */
export interface RetrySettings {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * Connects a `DataSource` in the background once the application has booted, retrying with capped
 * exponential backoff, so boot never waits for (or fails on) the database; destroys it at shutdown.
 * Readiness may initialise the same `DataSource` sooner: both share one `initialize()`.
 *
 * @example
 * const connector = new DatabaseConnector(dataSource, logger, { initialDelayMs: 250, maxDelayMs: 30_000 });
 */
export class DatabaseConnector implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly #stop = new AbortController();
  #connecting: Promise<void> | undefined;

  constructor(
    readonly dataSource: DataSource,
    private readonly logger: Logger,
    private readonly retry: RetrySettings,
  ) {}

  /** Starts connecting, without waiting for it. @example connector.onApplicationBootstrap() */
  onApplicationBootstrap(): void {
    this.#connecting ??= this.#connectUntilStopped();
  }

  /** Stops retrying, lets an `initialize()` in progress settle, then closes the pool. @example await connector.onApplicationShutdown() */
  async onApplicationShutdown(): Promise<void> {
    this.#stop.abort();
    await this.#connecting;
    await initializationSettled(this.dataSource);
    if (this.dataSource.isInitialized) {
      await this.dataSource.destroy();
      this.logger.info({ db: this.dataSource.options.type }, 'database connection closed');
    }
  }

  async #connectUntilStopped(): Promise<void> {
    const { type } = this.dataSource.options;
    for (let attempt = 1; !this.#stop.signal.aborted; attempt++) {
      try {
        await initializeOnce(this.dataSource);
        this.logger.info({ db: type, attempt }, 'database connected');
        return;
      } catch (error) {
        if (this.#stop.signal.aborted) return;
        const retryInMs = Math.min(this.retry.initialDelayMs * 2 ** (attempt - 1), this.retry.maxDelayMs);
        this.logger.warn(
          { db: type, attempt, retryInMs, err: error },
          'database connection failed; retrying',
        );
        await sleep(retryInMs, undefined, { signal: this.#stop.signal, ref: false }).catch(() => undefined);
      }
    }
  }
}
