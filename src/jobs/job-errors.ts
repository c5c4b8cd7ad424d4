import { FrameworkError } from '../framework-error';

/** The errors of jobs and schedules: one builder per code, so each message is written once. */
export const JobErrors = {
  noDatabase() {
    return new FrameworkError(
      'E_JOBS_NO_DATABASE',
      'JobsModule keeps its jobs in PostgreSQL, and the application imports no DatabaseModule.forRoot(...).\n' +
        "Fix: import DatabaseModule.forRoot({ type: 'postgres', url: process.env.DATABASE_URL }), " +
        'or give JobsModule.forRoot({ url }) a PostgreSQL URL.',
    );
  },

  notPostgres(type: string) {
    return new FrameworkError(
      'E_JOBS_NOT_POSTGRES',
      `JobsModule keeps its jobs in PostgreSQL, and the application's database is ${type}.\n` +
        "Fix: give JobsModule.forRoot({ url: 'postgres://...' }) a PostgreSQL server of its own.",
    );
  },

  invalidOption(option: string, value: unknown, expected: string) {
    return new FrameworkError(
      'E_INVALID_JOBS_OPTION',
      `JobsModule option ${option} is ${JSON.stringify(value)}; it must be ${expected}.`,
    );
  },

  invalidJob(where: string, problem: string) {
    return new FrameworkError('E_INVALID_JOB', `${where}: ${problem}`);
  },

  duplicateJob(name: string, first: string, second: string) {
    return new FrameworkError(
      'E_DUPLICATE_JOB',
      `two handlers for the job '${name}': ${first} and ${second}.\nFix: give one of them another name.`,
    );
  },

  unknownJob(name: string, known: readonly string[]) {
    return new FrameworkError(
      'E_UNKNOWN_JOB',
      `no handler for the job '${name}' (handlers: ${known.length > 0 ? known.join(', ') : 'none'}).\n` +
        `Fix: add @Job('${name}') to a method of a provided @Injectable() class.`,
    );
  },

  invalidEnqueueOption(name: string, option: string, value: unknown, expected: string) {
    return new FrameworkError(
      'E_INVALID_JOB',
      `enqueue('${name}'): ${option} is ${JSON.stringify(value)}; it must be ${expected}.`,
    );
  },

  notStarted(waitedMs: number) {
    return new FrameworkError(
      'E_JOBS_UNAVAILABLE',
      `the job queue did not connect within ${waitedMs} ms; the job was not enqueued.`,
    );
  },
};
