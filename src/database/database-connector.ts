import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '../lifecycle/lifecycle-hooks';
import type { ApplicationStatus } from '../lifecycle/application-status';
import type { LoadMonitor } from '../http/load-monitor';
import type { Logger } from '../logging/logger';
import { abandonAfter, breakConnectingConnections } from '../orm/connection-breaker';
import { startDatabaseServer, stopDatabaseServer } from './database-server';
import { initializeOnce, isConnected, pendingInitialization } from './initialize-once';
import { migrationsOnConnect } from '../migrations/migrations-on-connect';

/** How `DatabaseConnector` connects: each attempt's limit, and the capped exponential backoff between attempts. */
export interface ConnectSettings {
  /** How long one attempt may spend connecting (opening the pool, reading the server's version) before it is abandoned. */
  readonly attemptTimeoutMs: number;
  /** The delay after the first failure, doubled after each one up to `maxDelayMs`. */
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Runs once the pool is closed (or its connecting abandoned) at shutdown. */
  readonly onClosed?: (() => unknown) | undefined;
}

/** What a {@link DatabaseConnector} connects, and how. */
export interface DatabaseConnectorParts {
  readonly dataSource: DataSource;
  readonly logger: Logger;
  readonly connect: ConnectSettings;
  /** Whether the application runs a command instead of serving: then nothing connects in the background. */
  readonly status?: ApplicationStatus;
  /** Told of the first connection (and its migrations), whose event-loop delay is the boot's, not load. */
  readonly load?: LoadMonitor;
}

/**
 * Connects a `DataSource` in the background once the application has booted, retrying with capped
 * exponential backoff, so boot never waits for (or fails on) the database; destroys it at shutdown.
 * Readiness may initialise the same `DataSource` sooner: both share one `initialize()`.
 *
 * @example
 * const connect = { attemptTimeoutMs: 10_000, initialDelayMs: 250, maxDelayMs: 30_000 };
 * const connector = new DatabaseConnector({ dataSource, logger, connect });
 */
export class DatabaseConnector implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly dataSource: DataSource;
  readonly #logger: Logger;
  readonly #connect: ConnectSettings;
  readonly #status: ApplicationStatus | undefined;
  readonly #load: LoadMonitor | undefined;
  readonly #stop = new AbortController();
  #nextAttemptAt = 0;

  constructor({ dataSource, logger, connect, status, load }: DatabaseConnectorParts) {
    this.dataSource = dataSource;
    this.#logger = logger;
    this.#connect = connect;
    this.#status = status;
    this.#load = load;
  }

  /** True once the `DataSource` is initialised with its migrations applied and no attempt is still running. @example if (!connector.isConnected) throw databaseNotConnected(connector.retryAfterSeconds) */
  get isConnected(): boolean {
    return isConnected(this.dataSource);
  }

  /** Whole seconds until the next connection attempt, at least 1. @example res.setHeader('Retry-After', String(connector.retryAfterSeconds)) */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.#nextAttemptAt - performance.now()) / 1000));
  }

  /**
   * Starts the database server the application runs itself (the embedded one), if any, so that a
   * second process on its data directory fails to start rather than retrying; then starts
   * connecting, without waiting for it. Commands run no bootstrap hook: they start nothing here.
   * @example await connector.onApplicationBootstrap()
   */
  async onApplicationBootstrap(): Promise<void> {
    await startDatabaseServer(this.dataSource);
    setImmediate(() => {
      if (!this.#status?.isRunningCommand) void this.#connectUntilStopped();
    });
  }

  /**
   * Stops connecting in the background and waits for an attempt still running (migrations included)
   * to end, leaving the pool as it is: a command connects the `DataSource` itself.
   * @example await connector.stopConnecting()
   */
  async stopConnecting(): Promise<void> {
    this.#stop.abort();
    migrationsOnConnect(this.dataSource)?.stop();
    await pendingInitialization(this.dataSource)?.catch(() => undefined);
  }

  /**
   * Stops retrying and closes the pool. An attempt still connecting is abandoned (and whatever it
   * opens later, within the driver's connect timeout, is closed), and so is a wait for the
   * migration lock (within a second); migrations already running are waited for, never cut short.
   * @example await connector.onApplicationShutdown()
   */
  async onApplicationShutdown(): Promise<void> {
    this.#stop.abort();
    migrationsOnConnect(this.dataSource)?.stop();
    const pending = pendingInitialization(this.dataSource);
    if (pending && !this.dataSource.isInitialized) {
      breakConnectingConnections(this.dataSource, new Error('the application is shutting down'));
      pending
        .then(
          () => this.#destroy(),
          () => undefined,
        )
        .catch((error: unknown) =>
          this.#logger.warn({ err: error }, 'closing the database after shutdown failed'),
        );
      // The attempt's connections are broken already: a server it ran on may stop now.
      await this.#closed();
      return;
    }
    await pending?.catch(() => undefined);
    try {
      await this.#destroy();
    } finally {
      await this.#closed();
    }
  }

  async #closed(): Promise<void> {
    try {
      await stopDatabaseServer(this.dataSource);
    } finally {
      await this.#connect.onClosed?.();
    }
  }

  async #destroy(): Promise<void> {
    if (!this.dataSource.isInitialized) return;
    await this.dataSource.destroy();
    this.#logger.info({ db: this.dataSource.options.type }, 'database connection closed');
  }

  async #connectUntilStopped(): Promise<void> {
    const { type } = this.dataSource.options;
    for (let attempt = 1; !this.#stop.signal.aborted; attempt++) {
      try {
        const connecting = this.#attempt();
        this.#load?.ignoreDelayOf(connecting);
        await connecting;
        if (!this.#stop.signal.aborted) this.#logger.info({ db: type, attempt }, 'database connected');
        return;
      } catch (error) {
        if (this.#stop.signal.aborted) return;
        const { initialDelayMs, maxDelayMs } = this.#connect;
        const retryInMs = Math.min(initialDelayMs * 2 ** (attempt - 1), maxDelayMs);
        this.#nextAttemptAt = performance.now() + retryInMs;
        const hasMigrationsFailed = migrationsOnConnect(this.dataSource)?.failure === error;
        this.#logger.warn(
          { db: type, attempt, retryInMs, err: error },
          hasMigrationsFailed ? 'migrations failed; retrying' : 'database connection failed; retrying',
        );
        await sleep(retryInMs, undefined, { signal: this.#stop.signal, ref: false }).catch(() => undefined);
      }
    }
  }

  #attempt(): Promise<void> {
    const { attemptTimeoutMs } = this.#connect;
    return abandonAfter(
      initializeOnce(this.dataSource),
      attemptTimeoutMs,
      `connecting took longer than attemptTimeoutMs (${attemptTimeoutMs} ms)`,
      (reason) => breakConnectingConnections(this.dataSource, reason),
    );
  }
}
