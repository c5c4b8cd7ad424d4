import { defineErrors } from './error-entry';

/**
 * The errors of jobs and schedules: one entry per code, so each message is written once.
 *
 * @example
 * JobErrors.noDatabase.code; // 'E_JOBS_NO_DATABASE'
 */
export const JobErrors = defineErrors({
  noDatabase: {
    code: 'E_JOBS_NO_DATABASE',
    message: () =>
      'JobsModule keeps its jobs in PostgreSQL, and the application imports no DatabaseModule.forRoot(...).\n' +
      "Fix: import DatabaseModule.forRoot({ type: 'postgres', url: process.env.DATABASE_URL }), " +
      'or give JobsModule.forRoot({ url }) a PostgreSQL URL.',
  },

  notPostgres: {
    code: 'E_JOBS_NOT_POSTGRES',
    message: (type: string) =>
      `JobsModule keeps its jobs in PostgreSQL, and the application's database is ${type}.\n` +
      "Fix: give JobsModule.forRoot({ url: 'postgres://...' }) a PostgreSQL server of its own.",
  },

  pgBossMissing: {
    code: 'E_JOBS_PG_BOSS_MISSING',
    message: (version: string) =>
      'JobsModule runs its jobs on pg-boss, an optional peer dependency of keel, and the application has not installed it.\n' +
      `Fix: npm install pg-boss@${version}`,
  },

  invalidJobsOption: {
    code: 'E_INVALID_JOBS_OPTION',
    message: (option: string, value: unknown, expected: string) =>
      `JobsModule option ${option} is ${JSON.stringify(value)}; it must be ${expected}.`,
  },

  invalidJob: {
    code: 'E_INVALID_JOB',
    message: (where: string, problem: string) => `${where}: ${problem}`,
  },

  duplicateJob: {
    code: 'E_DUPLICATE_JOB',
    message: (name: string, first: string, second: string) =>
      `two handlers for the job '${name}': ${first} and ${second}.\nFix: give one of them another name.`,
  },

  jobClassNotProvided: {
    code: 'E_JOB_CLASS_NOT_PROVIDED',
    message: (type: string, what: string) =>
      `${type} declares ${what}, and no module provides ${type}, so nothing would run it.\n` +
      `Fix: add ${type} to the providers of a module the application imports.`,
  },

  unknownJob: {
    code: 'E_UNKNOWN_JOB',
    message: (name: string, known: readonly string[]) =>
      `no handler for the job '${name}' (handlers: ${known.length > 0 ? known.join(', ') : 'none'}).\n` +
      `Fix: add @Job('${name}') to a method of a provided @Injectable() class.`,
  },

  invalidEnqueueOption: {
    code: 'E_INVALID_ENQUEUE_OPTION',
    message: (name: string, option: string, value: unknown, expected: string) =>
      `enqueue('${name}'): ${option} is ${JSON.stringify(value)}; it must be ${expected}.`,
  },

  notStarted: {
    code: 'E_JOBS_UNAVAILABLE',
    message: (waitedMs: number) =>
      `the job queue did not connect within ${waitedMs} ms; the job was not enqueued.`,
  },

  // What the client of a request whose enqueue met `notStarted` is told.
  jobQueueUnavailable: {
    code: 'E_JOB_QUEUE_UNAVAILABLE',
    status: 503,
    message: () => 'job queue unavailable',
  },
});
