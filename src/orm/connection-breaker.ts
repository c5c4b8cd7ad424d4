import type { DataSource, QueryRunner } from 'typeorm';

// The query runner methods that hand a connection back to the pool with an error, which makes the
// pool destroy the connection instead of reusing it (pg-pool's contract): PostgreSQL's, then
// CockroachDB's. Drivers with neither cannot have a connection closed from outside.
const RELEASE_WITH_ERROR = ['releasePostgresConnection', 'releaseConnection'] as const;

/**
 * Closes the connection under `runner`, so that a query it sent and that will never be answered (a
 * connection silently dropped by the network, a server that stopped answering) fails at once.
 * Returns false when the driver offers no way to do that. A runner still waiting for its connection
 * has it closed as soon as it gets it.
 *
 * @example
 * const timer = setTimeout(() => breakConnection(runner, new Error('ping abandoned')), 5000);
 */
export function breakConnection(runner: QueryRunner, reason: Error): boolean {
  const methods = runner as unknown as Record<string, ((error: Error) => Promise<void>) | undefined>;
  const release = RELEASE_WITH_ERROR.map((name) => methods[name]).find(
    (method) => typeof method === 'function',
  );
  if (!release) return false;
  const breakNow = () => void release.call(runner, reason).catch(() => undefined);
  // A runner still waiting for a connection from the pool has none to close yet; released now, it
  // would be marked released, then take the connection and never give it back.
  const { databaseConnection, databaseConnectionPromise } = runner as unknown as {
    databaseConnection?: unknown;
    databaseConnectionPromise?: Promise<unknown>;
  };
  if (databaseConnection === undefined && databaseConnectionPromise) {
    databaseConnectionPromise.then(breakNow, () => undefined);
  } else {
    breakNow();
  }
  return true;
}

/**
 * Closes the connections a `DataSource` is opening while `initialize()` has not finished connecting
 * (reading the server's version and schema), so an attempt stuck on a server that accepted the login
 * and then stopped answering fails, and can be retried. Once TypeORM marks the DataSource
 * initialised it is building metadata or running migrations, which are never cut short. Returns
 * whether it closed anything: before the pool has its first connection there is nothing to close
 * (the driver's connect timeout bounds that stage).
 *
 * @example
 * breakConnectingConnections(dataSource, new Error('connection attempt abandoned'));
 */
export function breakConnectingConnections(dataSource: DataSource, reason: Error): boolean {
  if (dataSource.isInitialized) return false;
  const driver = dataSource.driver as unknown as { connectedQueryRunners?: readonly QueryRunner[] };
  const runners = [...(driver.connectedQueryRunners ?? [])];
  return runners.map((runner) => breakConnection(runner, reason)).includes(true);
}

/**
 * Awaits `work`; if it is still pending after `ms`, calls `abandon` with an error saying so, and
 * should `abandon` have closed something and `work` then fail (as it does once its connection is
 * closed), fails with that error rather than the driver's "Connection terminated", the driver's
 * error as its cause.
 *
 * @example
 * await abandonAfter(runner.query('SELECT 1'), 5000, 'no answer after 5000 ms', (reason) => breakConnection(runner, reason));
 */
export async function abandonAfter<T>(
  work: Promise<T>,
  ms: number,
  message: string,
  abandon: (reason: Error) => boolean,
): Promise<T> {
  let hasAbandoned = false;
  const timer = setTimeout(() => {
    hasAbandoned = abandon(new Error(message));
  }, ms);
  try {
    return await work;
  } catch (error) {
    if (hasAbandoned) throw new Error(message, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
