import { defineErrors } from './error-entry';

/**
 * The errors of `keel/testing`'s test databases: one entry per code, so each message is written once.
 *
 * @example
 * TestingErrors.testDatabaseWithoutModule.code; // 'E_TEST_DATABASE_WITHOUT_MODULE'
 */
export const TestingErrors = defineErrors({
  testDatabaseWithoutModule: {
    code: 'E_TEST_DATABASE_WITHOUT_MODULE',
    message: () =>
      'withTestDatabase(): the application imports no DatabaseModule.forRoot(...), so there is no database to give it one of its own.\n' +
      'Fix: import DatabaseModule.forRoot(...) in the module the test boots (or one it imports), or leave out withTestDatabase().',
  },

  testDatabaseNotPostgres: {
    code: 'E_TEST_DATABASE_TYPE',
    message: (type: string) =>
      `withTestDatabase() makes PostgreSQL databases, and the application's DataSource is of type '${type}'.\n` +
      "Fix: give DatabaseModule.forRoot the type 'postgres', or leave out withTestDatabase().",
  },

  invalidTestDatabaseUrl: {
    code: 'E_TEST_DATABASE_URL',
    message: (url: string) =>
      `withTestDatabase({ url }): ${url} is not a PostgreSQL URL.\n` +
      "Fix: give postgres://user:password@host:5432/database, or 'memory://' for the embedded database in memory.",
  },

  testDatabaseUnreachable: {
    code: 'E_TEST_DATABASE_UNREACHABLE',
    message: (url: string, reason: string) =>
      `withTestDatabase() cannot reach the PostgreSQL server at ${url}: ${reason}.\n` +
      'Fix: start that server, pass the URL of one that runs (withTestDatabase({ url })), ' +
      'or leave DATABASE_URL unset to test on the embedded database in memory.',
  },
});
