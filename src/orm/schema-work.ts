import { AsyncLocalStorage } from 'node:async_hooks';

const schemaWork = new AsyncLocalStorage<true>();
// How many `runSchemaWork` calls are under way. Each enabled AsyncLocalStorage adds its own step to
// every asynchronous operation the process starts (Node 20 propagates each store through an
// `init` hook); schema work happens at boot and in commands, so its store is switched off once none
// is running rather than taxing every request served after it.
let running = 0;

/**
 * Runs `work` (migrations, schema synchronisation) with its queries unbounded by `queryTimeoutMs`:
 * creating an index on a large table may rightly take minutes, where a request's query may not.
 * Every query started inside `work`, however deep in TypeORM, is exempt; no other is.
 *
 * @example
 * await runSchemaWork(() => dataSource.initialize());
 */
export async function runSchemaWork<T>(work: () => Promise<T>): Promise<T> {
  running += 1;
  try {
    return await schemaWork.run(true, work);
  } finally {
    running -= 1;
    if (running === 0) schemaWork.disable();
  }
}

/** True for a query started inside {@link runSchemaWork}. @example if (!isSchemaWork()) startTimer() */
export function isSchemaWork(): boolean {
  return schemaWork.getStore() === true;
}
