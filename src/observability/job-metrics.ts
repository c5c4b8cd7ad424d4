import type { JobOutcomeListener } from '../jobs/job-outcomes';
import type { Metrics } from './metrics';

/**
 * `keel_jobs_total{name,outcome}`: every try of a job on this replica, by the job's name (a
 * schedule's is `Class.method`) and how it ended, `completed`, `retried` or `failed`. Made whether
 * or not the application has `JobsModule`; without it the series has no samples.
 *
 * @example
 * { provide: JOB_OUTCOME_LISTENER, useFactory: countJobOutcomes, inject: [Metrics] }
 */
export function countJobOutcomes(metrics: Metrics): JobOutcomeListener {
  const tries = metrics.counter({
    name: 'keel_jobs_total',
    help: 'Tries of jobs on this replica, by job name and outcome: completed, retried or failed',
    labelNames: ['name', 'outcome'],
  });
  return (name, outcome) => tries.inc({ name, outcome });
}
