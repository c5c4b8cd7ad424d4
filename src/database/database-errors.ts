import { FrameworkError } from '../framework-error';

/** The errors of the embedded database: one builder per code, so each message is written once. */
export const DatabaseErrors = {
  dataDirInUse(dataDir: string, owner: number) {
    return new FrameworkError(
      'E_DATA_DIR_IN_USE',
      `the embedded database in ${dataDir} is in use by process ${owner}.\n` +
        'Fix: stop that process, or give this one another data directory.',
    );
  },

  dataDirContended(pidFile: string) {
    return new FrameworkError(
      'E_DATA_DIR_CONTENDED',
      `cannot claim ${pidFile}: other processes keep taking it.\n` +
        'Fix: start one process at a time on a data directory.',
    );
  },

  embeddedNotInstalled(missing: readonly string[]) {
    return new FrameworkError(
      'E_EMBEDDED_NOT_INSTALLED',
      `embeddedPostgres() needs ${missing.join(' and ')}, which ${missing.length > 1 ? 'are' : 'is'} not installed.\n` +
        `Fix: npm install --save-dev @electric-sql/pglite@0.5.14 @electric-sql/pglite-socket@0.2.17, ` +
        'or set DATABASE_URL to use a PostgreSQL server instead.',
    );
  },
};
