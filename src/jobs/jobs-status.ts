import type { PgBoss } from './pg-boss';

/** One queue's jobs, by state. */
export interface QueueCounts {
  readonly name: string;
  readonly waiting: number;
  readonly delayed: number;
  readonly active: number;
  readonly completed: number;
  readonly failed: number;
}

/** A job that failed every try and stays failed. */
export interface FailedJob {
  readonly name: string;
  readonly id: string;
  readonly attempts: number;
  readonly failedAt: Date;
  readonly error: string;
}

/** What `jobs:status` shows (keel's CLI reads it; `keel` does not export it). */
export interface JobsStatus {
  readonly queues: readonly QueueCounts[];
  readonly failed: readonly FailedJob[];
}

// The most failed jobs jobs:status lists: the newest ones.
const FAILED_SHOWN = 50;

/**
 * Counts every queue's jobs by state, straight from the job table (pg-boss's own counts are a cache
 * its monitor refreshes once a minute), and reads the newest failed jobs. @internal
 */
export async function readJobsStatus(boss: PgBoss, schema: string): Promise<JobsStatus> {
  const db = boss.getDb();
  const counts = await db.executeSql(
    `SELECT q.name,
       count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now())::int AS waiting,
       count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after > now())::int AS delayed,
       count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
       count(j.id) FILTER (WHERE j.state = 'completed')::int AS completed,
       count(j.id) FILTER (WHERE j.state = 'failed')::int AS failed
     FROM ${schema}.queue q LEFT JOIN ${schema}.job j ON j.name = q.name
     WHERE q.name NOT LIKE '\\_\\_pgboss%'
     GROUP BY q.name ORDER BY q.name`,
  );
  const failed = await db.executeSql(
    `SELECT name, id, retry_count + 1 AS attempts, completed_on AS "failedAt", output
     FROM ${schema}.job WHERE state = 'failed' AND name NOT LIKE '\\_\\_pgboss%'
     ORDER BY completed_on DESC LIMIT ${FAILED_SHOWN}`,
  );
  return {
    queues: counts.rows as QueueCounts[],
    failed: (failed.rows as (Omit<FailedJob, 'error'> & { output: unknown })[]).map(({ output, ...job }) => ({
      ...job,
      error: errorText(output),
    })),
  };
}

function errorText(output: unknown): string {
  const message = (output as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(output);
}
