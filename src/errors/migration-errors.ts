import { defineErrors } from './error-entry';

// A usage mistake exits 2, as commander's own do; a failure of the database or the migrations, 1.
const USAGE = 2;
const FAILED = 1;

/**
 * The errors of the migration commands: one entry per code, so each message is written once.
 *
 * @example
 * MigrationErrors.noDatabaseModule.code; // 'E_NO_DATABASE_MODULE'
 */
export const MigrationErrors = defineErrors({
  noDatabaseModule: {
    code: 'E_NO_DATABASE_MODULE',
    exitCode: FAILED,
    message: (command: string) =>
      `${command} needs the application's DataSource, and the application imports no DatabaseModule.forRoot(...).\n` +
      "Fix: add DatabaseModule.forRoot({ type: 'postgres', url: process.env.DATABASE_URL, migrations: [] }) to the root module's imports.",
  },

  migrationFailed: {
    code: 'E_MIGRATION_FAILED',
    exitCode: FAILED,
    message: (command: string, reason: string) => `${command} failed: ${reason}`,
  },

  migrationsPending: {
    code: 'E_MIGRATIONS_PENDING',
    exitCode: FAILED,
    message: (count: number) =>
      `${count} migration${count === 1 ? ' is' : 's are'} pending.\nFix: run them with the migrate command.`,
  },

  invalidStep: {
    code: 'E_INVALID_STEP',
    exitCode: USAGE,
    message: (given: string) =>
      `--step ${JSON.stringify(given)} is not a number of migrations.\nFix: pass a whole number, 1 or more (--step 2).`,
  },
});
