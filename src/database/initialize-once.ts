import type { DataSource } from 'typeorm';
import { runSchemaWork } from './schema-work';

// Keyed by the DataSource itself: every part of the application that asks (the background
// connector, each readiness probe) shares the one initialize() in progress.
const connecting = new WeakMap<DataSource, Promise<void>>();

/**
 * Initialises `dataSource` unless it already is, with one `initialize()` in progress at a time:
 * TypeORM throws when `initialize()` runs twice, and two pools would be opened.
 *
 * @example
 * await initializeOnce(dataSource);
 */
export function initializeOnce(dataSource: DataSource): Promise<void> {
  // Checked before isInitialized, which TypeORM sets before it has built the metadata and run the
  // migrations: until initialize() resolves, the DataSource is not ready to serve.
  let pending = connecting.get(dataSource);
  if (!pending && dataSource.isInitialized) return Promise.resolve();
  if (!pending) {
    // Migrations and schema synchronisation run inside initialize(): exempt from queryTimeoutMs.
    pending = runSchemaWork(() => dataSource.initialize())
      .then(() => undefined)
      .finally(() => connecting.delete(dataSource));
    connecting.set(dataSource, pending);
  }
  return pending;
}

/**
 * The `initialize()` in progress for `dataSource` through {@link initializeOnce}, if any; starts
 * nothing. Shutdown looks at it so it never destroys a pool that is still being opened.
 *
 * @example
 * await pendingInitialization(dataSource)?.catch(() => undefined);
 */
export function pendingInitialization(dataSource: DataSource): Promise<void> | undefined {
  return connecting.get(dataSource);
}
