import { InjectionToken } from '../container/token';

/** How one try of a job ended: done, failed with tries left, or failed for good. */
export type JobOutcome = 'completed' | 'retried' | 'failed';

/** Told the outcome of every try of every job, on the replica that ran it. */
export type JobOutcomeListener = (name: string, outcome: JobOutcome) => void;

/**
 * Providers under this token hear every job's outcome (`MetricsModule` counts them as
 * `keel_jobs_total{name,outcome}`). With none, running a job reports to nothing, decided at boot.
 * @internal
 *
 * @example
 * providers: [{ provide: JOB_OUTCOME_LISTENER, useFactory: countJobOutcomes, inject: [Metrics] }]
 */
export const JOB_OUTCOME_LISTENER = new InjectionToken<JobOutcomeListener>('JOB_OUTCOME_LISTENER', {
  multi: true,
});
