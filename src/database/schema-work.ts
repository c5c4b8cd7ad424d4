import { AsyncLocalStorage } from 'node:async_hooks';

const schemaWork = new AsyncLocalStorage<true>();

/**
 * Runs `work` (migrations, schema synchronisation) with its queries unbounded by `queryTimeoutMs`:
 * creating an index on a large table may rightly take minutes, where a request's query may not.
 * Every query started inside `work`, however deep in TypeORM, is exempt; no other is.
 *
 * @example
 * await runSchemaWork(() => dataSource.initialize());
 */
export function runSchemaWork<T>(work: () => Promise<T>): Promise<T> {
  return schemaWork.run(true, work);
}

/** True for a query started inside {@link runSchemaWork}. @example if (!isSchemaWork()) startTimer() */
export function isSchemaWork(): boolean {
  return schemaWork.getStore() === true;
}
