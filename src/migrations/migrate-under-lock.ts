import type { DataSource, Migration, MigrationExecutor, QueryRunner } from 'typeorm';
import type { Logger } from '../logging/logger';
import { migrationLockName, migrationLockOf, type MigrationLock } from './migration-locks';
import { runSchemaWork } from '../orm/schema-work';
import { loadTypeOrm } from '../orm/typeorm';

/** What {@link migrateUnderLock} needs besides the `DataSource`. */
export interface MigrateUnderLockOptions {
  /**
   * How long one wait for the lock lasts before it is asked for again: kept under the query bound,
   * so a server that stops answering is noticed, while a process that waits behind another's
   * migrations waits as long as they take.
   */
  readonly lockWaitMs: number;
  /** Aborted at shutdown: a wait for the lock ends within `lockWaitMs`; migrations already running finish. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/**
 * Runs `dataSource`'s pending migrations while holding the database's migration lock (PostgreSQL
 * and the embedded database: an advisory lock; MySQL and MariaDB: `GET_LOCK`), on one connection
 * of its own that takes the lock, runs every migration (in TypeORM's transactions, per
 * `migrationsTransactionMode`) unbounded by `queryTimeoutMs`, and is closed afterwards. Of several
 * processes starting together, one migrates; the others wait, then find nothing left to run.
 * Resolves with the migrations this process applied.
 *
 * @example
 * const applied = await migrateUnderLock(dataSource, { lockWaitMs: 1000, signal, logger });
 */
export function migrateUnderLock(
  dataSource: DataSource,
  options: MigrateUnderLockOptions,
): Promise<Migration[]> {
  // The wait for the lock stays bounded; the migrations themselves are never cut short.
  return underMigrationLock(dataSource, options, (executor) =>
    runSchemaWork(() => executor.executePendingMigrations()),
  );
}

/**
 * Runs `work` with a `MigrationExecutor` on a connection of its own that holds the database's
 * migration lock (see {@link migrateUnderLock}), then gives the lock back and closes the
 * connection: what reverting migrations runs under too, so that it never meets another process's
 * migrations halfway.
 *
 * @example
 * await underMigrationLock(dataSource, options, (executor) => executor.undoLastMigration());
 */
export async function underMigrationLock<T>(
  dataSource: DataSource,
  options: MigrateUnderLockOptions,
  work: (executor: MigrationExecutor) => Promise<T>,
): Promise<T> {
  const lock = migrationLockOf(dataSource.options.type);
  const runner = dataSource.createQueryRunner('master');
  let held: string | undefined;
  try {
    if (lock) {
      const table = dataSource.options.migrationsTableName ?? 'migrations';
      const name = migrationLockName(String(await runner.getCurrentDatabase()), table);
      await acquire(lock, runner, name, options);
      held = name;
      await lock.afterAcquire(runner);
    }
    const executor = new (loadTypeOrm().MigrationExecutor)(dataSource, runner);
    executor.transaction = dataSource.options.migrationsTransactionMode ?? 'all';
    return await work(executor);
  } finally {
    await giveBack(lock, runner, held);
  }
}

async function acquire(
  lock: MigrationLock,
  runner: QueryRunner,
  name: string,
  { lockWaitMs, signal, logger }: MigrateUnderLockOptions,
): Promise<void> {
  // A shutdown is noticed between two waits, not in the middle of one: closing the connection
  // under a wait would end it sooner, but reads as a database outage to everything watching.
  for (let wait = 1; !signal.aborted; wait++) {
    if (await lock.tryAcquire(runner, name, lockWaitMs)) return;
    if (wait === 1) {
      logger.info(
        { db: runner.connection.options.type },
        'waiting for the migration lock: another process is migrating',
      );
    }
  }
  throw new Error('the application is shutting down');
}

async function giveBack(lock: MigrationLock | undefined, runner: QueryRunner, held: string | undefined) {
  if (!lock) return runner.release();
  if (runner.isReleased) return;
  // Unlocking first lets the next process go on at once (and the embedded database runs one
  // session for every connection, so closing one releases nothing there); closing the connection
  // ends the lock and the session's settings on a server even when the unlock failed.
  if (held) await lock.release(runner, held).catch(() => undefined);
  await lock.discard(runner);
}
