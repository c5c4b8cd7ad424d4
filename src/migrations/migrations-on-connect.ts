import type { DataSource } from 'typeorm';
import type { Logger } from '../logging/logger';
import { migrateUnderLock } from './migrate-under-lock';

/** What a `DataSource` that migrates as it connects needs to know. */
export interface MigrationsOnConnectSettings {
  /** How long one wait for the lock lasts before it is asked for again (see `migrateUnderLock`). */
  readonly lockWaitMs: number;
  readonly logger: Logger;
}

type Phase = 'pending' | 'migrating' | 'migrated' | 'failed';

/**
 * The migrations one `DataSource` runs under the database's lock once it is initialised, and how
 * far they got: `initializeOnce` runs them, readiness reports `migrating` while they run (or wait
 * for the lock) and their error once they failed, and the connector retries them with its backoff.
 *
 * @example
 * const migrations = migrateOnConnect(dataSource, { lockWaitMs: 1000, logger });
 * if (migrations.isMigrating) return { isReady: false, reason: 'migrating' };
 */
export class MigrationsOnConnect {
  readonly #settings: MigrationsOnConnectSettings;
  readonly #stop = new AbortController();
  readonly #started: Promise<void>;
  #markStarted: () => void = () => undefined;
  #phase: Phase = 'pending';
  #failure: unknown;

  constructor(settings: MigrationsOnConnectSettings) {
    this.#settings = settings;
    this.#started = new Promise((resolve) => {
      this.#markStarted = resolve;
    });
  }

  /** True while this process waits for the lock or runs the migrations. */
  get isMigrating(): boolean {
    return this.#phase === 'migrating';
  }

  /** True once the migrations have run to the end in this process. */
  get isMigrated(): boolean {
    return this.#phase === 'migrated';
  }

  /** The last run's error, until the next run starts; `undefined` when it did not fail. */
  get failure(): unknown {
    return this.#phase === 'failed' ? this.#failure : undefined;
  }

  /** Settles once a run has started: readiness need not wait for the migrations to say so. */
  get started(): Promise<void> {
    return this.#started;
  }

  /**
   * Runs the pending migrations under the lock, unless they already ran. A failed run leaves the
   * `DataSource` initialised and may be run again.
   */
  async run(dataSource: DataSource): Promise<void> {
    if (this.#phase === 'migrated') return;
    this.#phase = 'migrating';
    this.#markStarted();
    const { logger, lockWaitMs } = this.#settings;
    try {
      const applied = await migrateUnderLock(dataSource, { lockWaitMs, logger, signal: this.#stop.signal });
      this.#phase = 'migrated';
      logger.info(
        { db: dataSource.options.type, applied: applied.map((migration) => migration.name) },
        'migrations up to date',
      );
    } catch (error) {
      this.#phase = 'failed';
      this.#failure = error;
      throw error;
    }
  }

  /** Ends a wait for the lock (at shutdown) within one wait; migrations already running finish. */
  stop(): void {
    this.#stop.abort();
  }
}

const registered = new WeakMap<DataSource, MigrationsOnConnect>();

/**
 * Makes `dataSource` run its pending migrations under the database's lock each time
 * `initializeOnce` connects it, in place of TypeORM's unlocked `migrationsRun` (which its options
 * must leave off).
 *
 * @example
 * const dataSource = new DataSource({ ...options, migrationsRun: false });
 * migrateOnConnect(dataSource, { lockWaitMs: 1000, logger });
 */
export function migrateOnConnect(
  dataSource: DataSource,
  settings: MigrationsOnConnectSettings,
): MigrationsOnConnect {
  const migrations = new MigrationsOnConnect(settings);
  registered.set(dataSource, migrations);
  return migrations;
}

/** The migrations `dataSource` runs as it connects, if `migrateOnConnect` set any. @example migrationsOnConnect(dataSource)?.isMigrating */
export function migrationsOnConnect(dataSource: DataSource): MigrationsOnConnect | undefined {
  return registered.get(dataSource);
}
