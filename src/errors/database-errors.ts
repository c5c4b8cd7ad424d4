import { defineErrors } from './error-entry';

/**
 * The errors of the embedded database and of queries: one entry per code, so each message is written once.
 *
 * @example
 * DatabaseErrors.dataDirInUse.code; // 'E_DATA_DIR_IN_USE'
 */
export const DatabaseErrors = defineErrors({
  dataDirInUse: {
    code: 'E_DATA_DIR_IN_USE',
    message: (dataDir: string, owner: number) =>
      `the embedded database in ${dataDir} is in use by process ${owner}.\n` +
      'Fix: stop that process, or give this one another data directory.',
  },

  dataDirContended: {
    code: 'E_DATA_DIR_CONTENDED',
    message: (pidFile: string) =>
      `cannot claim ${pidFile}: other processes keep taking it.\n` +
      'Fix: start one process at a time on a data directory.',
  },

  embeddedNotInstalled: {
    code: 'E_EMBEDDED_NOT_INSTALLED',
    message: (missing: readonly string[]) =>
      `embeddedPostgres() needs ${missing.join(' and ')}, which ${missing.length > 1 ? 'are' : 'is'} not installed.\n` +
      `Fix: npm install --save-dev @electric-sql/pglite@0.5.14 @electric-sql/pglite-socket@0.2.17, ` +
      'or set DATABASE_URL to use a PostgreSQL server instead.',
  },

  // Built by QueryTimeoutError, which the pool's callback and `instanceof` checks know by its class.
  queryTimeout: {
    code: 'E_QUERY_TIMEOUT',
    message: (timeoutMs: number) =>
      `the database did not answer a query within queryTimeoutMs (${timeoutMs} ms): its connection was closed`,
  },
});
