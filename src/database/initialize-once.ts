import type { DataSource } from 'typeorm';
import { startDatabaseServer } from './database-server';
import { migrationsOnConnect } from '../migrations/migrations-on-connect';
import { runSchemaWork } from '../orm/schema-work';

// Keyed by the DataSource itself: every part of the application that asks (the background
// connector, each readiness probe) shares the one attempt in progress.
const connecting = new WeakMap<DataSource, Promise<void>>();

/**
 * Initialises `dataSource` unless it already is, then runs the migrations `DatabaseModule` set it
 * to run under the database's lock, with one attempt in progress at a time: TypeORM throws when
 * `initialize()` runs twice, and two pools would be opened. After migrations failed, the next call
 * runs them again on the pool already open.
 *
 * @example
 * await initializeOnce(dataSource);
 */
export function initializeOnce(dataSource: DataSource): Promise<void> {
  let pending = connecting.get(dataSource);
  if (!pending && isConnected(dataSource)) return Promise.resolve();
  if (!pending) {
    pending = connect(dataSource).finally(() => connecting.delete(dataSource));
    connecting.set(dataSource, pending);
  }
  return pending;
}

async function connect(dataSource: DataSource): Promise<void> {
  // Schema synchronisation (and TypeORM's own migrationsRun, on a DataSource keel did not make)
  // runs inside initialize(): exempt from queryTimeoutMs.
  if (!dataSource.isInitialized) {
    await startDatabaseServer(dataSource);
    await runSchemaWork(() => dataSource.initialize());
  }
  await migrationsOnConnect(dataSource)?.run(dataSource);
}

/**
 * True once `dataSource` is initialised with its migrations applied and no attempt is still
 * running. TypeORM sets `isInitialized` before it has built the metadata: until `initialize()`
 * resolves, and the migrations have run, the DataSource is not ready to serve.
 *
 * @example
 * if (!isConnected(dataSource)) throw databaseNotConnected(1);
 */
export function isConnected(dataSource: DataSource): boolean {
  if (!dataSource.isInitialized || connecting.has(dataSource)) return false;
  return migrationsOnConnect(dataSource)?.isMigrated ?? true;
}

/**
 * The attempt in progress for `dataSource` through {@link initializeOnce}, if any; starts
 * nothing. Shutdown looks at it so it never destroys a pool that is still being opened.
 *
 * @example
 * await pendingInitialization(dataSource)?.catch(() => undefined);
 */
export function pendingInitialization(dataSource: DataSource): Promise<void> | undefined {
  return connecting.get(dataSource);
}
