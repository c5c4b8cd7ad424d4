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

  notATransaction: {
    code: 'E_JOBS_NOT_A_TRANSACTION',
    message: (name: string) =>
      `enqueue('${name}'): its transaction option is not the EntityManager of an open transaction, ` +
      "so the job would not be stored with the transaction's writes.\n" +
      'Fix: pass the manager that dataSource.transaction(async (manager) => ...) gives, inside that callback.',
  },

  transactionElsewhere: {
    code: 'E_JOBS_TRANSACTION_ELSEWHERE',
    message: (name: string, reason: string) =>
      `enqueue('${name}'): the transaction cannot store the job, since ${reason}.\n` +
      "Fix: enqueue in a transaction of the application's DataSource, and keep the jobs in its database " +
      '(JobsModule.forRoot() without url), or enqueue without a transaction.',
  },

  // Answered as notStarted is (503), under a code of its own: the wait it skips is the difference.
  notStartedForTransaction: {
    code: 'E_JOBS_NOT_STARTED_IN_TRANSACTION',
    message: () =>
      'the job queue has not started yet, and the embedded database serves one transaction at a time: ' +
      'waiting inside the transaction would hold up the start; the job was not enqueued.',
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
