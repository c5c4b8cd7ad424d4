import type { JobHandler } from './job-handlers';
import type { PgBoss, QueueJob } from './pg-boss';

/** How a replica works on its queues. @internal */
export interface WorkSettings {
  /** The wait of a worker that found its queue empty. */
  readonly pollingIntervalS: number;
  /** How long a running job's replica may be silent before the job is failed and retried. */
  readonly heartbeatTimeoutS: number;
}

/** How one job of a batch ended, as pg-boss's `perJobResults` takes it. */
interface JobResult {
  readonly id: string;
  readonly status: 'completed' | 'failed';
  readonly output?: unknown;
}

// Three heartbeats per timeout: one refresh delayed by a busy pool or event loop still leaves the
// job its replica, so a healthy job is never taken (and run twice) for a hiccup.
const HEARTBEATS_PER_TIMEOUT = 3;

/**
 * Creates (or updates) `handler`'s queue and works on it: a replica fetches up to
 * `handler.concurrency` jobs in one query and runs them side by side through `run`, each settled on
 * its own (a throw fails that job only). A full fetch is followed by the next one at once, so a
 * backlog drains as fast as the handlers go; only a fetch that found fewer jobs than it asked for
 * waits `pollingIntervalS`. Each running job's heartbeat is refreshed while it runs; a job whose
 * replica stops refreshing it (killed, frozen) is failed after `heartbeatTimeoutS` and retried.
 * @internal
 *
 * @example
 * await workOn(boss, handler, { pollingIntervalS: 2, heartbeatTimeoutS: 10 }, (job) => runJob(handler, job));
 */
export async function workOn(
  boss: PgBoss,
  handler: JobHandler,
  settings: WorkSettings,
  run: (job: QueueJob) => Promise<void>,
): Promise<void> {
  const { name, retries, retryDelayS, concurrency, cron } = handler;
  const queue = {
    retryLimit: retries,
    retryDelay: retryDelayS,
    retryBackoff: true,
    heartbeatSeconds: settings.heartbeatTimeoutS,
  };
  // createQueue leaves an existing queue as it is: the update applies what changed since.
  await boss.createQueue(name, queue);
  await boss.updateQueue(name, queue);
  if (cron) await boss.schedule(name, cron);
  const options = {
    pollingIntervalSeconds: settings.pollingIntervalS,
    // One query claims as many jobs as may run at once: a query a job would cap a replica at a few
    // hundred jobs a second, whatever the concurrency.
    batchSize: concurrency,
    perJobResults: true,
    heartbeatRefreshSeconds: settings.heartbeatTimeoutS / HEARTBEATS_PER_TIMEOUT,
  };
  // Known once work() resolves, which is before its first fetch can have come back.
  const worker = { id: '' };
  worker.id = await boss.work(name, options, async (jobs) => {
    const results = await Promise.all(jobs.map((job) => settle(job, run)));
    // A full batch says more jobs may be waiting. pg-boss's own burst mode ignores a batch of one,
    // so the worker is woken here, the same for every concurrency: it fetches again at once.
    if (worker.id && jobs.length === concurrency) boss.notifyWorker(worker.id);
    return results;
  });
}

async function settle(job: QueueJob, run: (job: QueueJob) => Promise<void>): Promise<JobResult> {
  try {
    await run(job);
    return { id: job.id, status: 'completed' };
  } catch (error) {
    return { id: job.id, status: 'failed', output: error };
  }
}
