import { CliError } from './cli-errors';

// A usage mistake exits 2, as commander's own do; a failure of the database or the migrations, 1.
const USAGE = 2;
const FAILED = 1;

/** The errors of the migration commands: one builder per code, so each message is written once. */
export const MigrationErrors = {
  noDatabaseModule(command: string) {
    return new CliError(
      'E_NO_DATABASE_MODULE',
      FAILED,
      `${command} needs the application's DataSource, and the application imports no DatabaseModule.forRoot(...).\n` +
        "Fix: add DatabaseModule.forRoot({ type: 'postgres', url: process.env.DATABASE_URL, migrations: [] }) to the root module's imports.",
    );
  },

  migrationFailed(command: string, reason: string) {
    return new CliError('E_MIGRATION_FAILED', FAILED, `${command} failed: ${reason}`);
  },

  migrationsPending(count: number) {
    return new CliError(
      'E_MIGRATIONS_PENDING',
      FAILED,
      `${count} migration${count === 1 ? ' is' : 's are'} pending.\nFix: run them with the migrate command.`,
    );
  },

  invalidStep(given: string) {
    return new CliError(
      'E_INVALID_STEP',
      USAGE,
      `--step ${JSON.stringify(given)} is not a number of migrations.\nFix: pass a whole number, 1 or more (--step 2).`,
    );
  },
};
