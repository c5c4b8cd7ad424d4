import type { DataSource } from 'typeorm';
import { underMigrationLock, type MigrateUnderLockOptions } from './migrate-under-lock';
import { runSchemaWork } from '../orm/schema-work';
import { loadTypeOrm } from '../orm/typeorm';

/** Where one migration stands: in the code and applied, in the code only, or applied and gone from the code. */
export type MigrationState = 'applied' | 'pending' | 'missing';

/** One migration, by its class name, and where it stands. */
export interface MigrationEntry {
  readonly name: string;
  readonly state: MigrationState;
}

/**
 * Every migration the `DataSource` lists, oldest first, applied or pending, followed by the ones
 * the database has applied that the code no longer lists (`missing`): what `migrate:status` prints.
 *
 * @example
 * const pending = (await migrationStates(dataSource)).filter((entry) => entry.state === 'pending');
 */
export async function migrationStates(dataSource: DataSource): Promise<MigrationEntry[]> {
  const executor = new (loadTypeOrm().MigrationExecutor)(dataSource);
  const { executed, pending } = await runSchemaWork(async () => ({
    executed: await executor.getExecutedMigrations(),
    // Also checks the names, as migrate would: each ends in its 13-digit timestamp, none twice.
    pending: await executor.getPendingMigrations(),
  }));
  const listed = dataSource.migrations
    .map((migration) => migration.name ?? migration.constructor.name)
    .sort((a, b) => timestampOf(a) - timestampOf(b));
  const pendingNames = new Set(pending.map((migration) => migration.name));
  return [
    ...listed.map((name) => ({ name, state: pendingNames.has(name) ? 'pending' : 'applied' }) as const),
    ...executed
      .filter((migration) => !listed.includes(migration.name))
      .reverse()
      .map((migration) => ({ name: migration.name, state: 'missing' }) as const),
  ];
}

/**
 * Reverts the last `steps` applied migrations, newest first, each with its `down()` in its own
 * transaction, under the database's migration lock; stops early when none is left. Resolves with
 * the names of the migrations it reverted.
 *
 * @example
 * const reverted = await revertMigrations(dataSource, 2, { lockWaitMs: 1000, signal, logger });
 */
export function revertMigrations(
  dataSource: DataSource,
  steps: number,
  options: MigrateUnderLockOptions,
): Promise<string[]> {
  return underMigrationLock(dataSource, options, (executor) =>
    runSchemaWork(async () => {
      const reverted: string[] = [];
      for (let step = 0; step < steps; step++) {
        const [last] = await executor.getExecutedMigrations();
        if (!last) break;
        await executor.undoLastMigration();
        reverted.push(last.name);
      }
      return reverted;
    }),
  );
}

// TypeORM orders migrations by the timestamp their class name ends with.
function timestampOf(name: string): number {
  return Number.parseInt(name.slice(-13), 10);
}
