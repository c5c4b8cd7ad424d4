import type { Container } from '../container/container';
import { messageOf } from '../framework-error';
import type { ApplicationStatus } from '../lifecycle/application-status';
import type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '../lifecycle/lifecycle-hooks';
import type { Logger } from '../logging/logger';
import { collectJobHandlers, type JobHandler } from './job-handlers';
import { JOB_OUTCOME_LISTENER, type JobOutcome } from './job-outcomes';
import { readJobsStatus, type JobsStatus } from './jobs-status';
import { loadPgBoss, type PgBoss, type PgBossOptions, type QueueJob } from './pg-boss';

/** What a {@link JobsRuntime} works with. @internal */
export interface JobsRuntimeParts {
  readonly options: PgBossOptions;
  readonly pollingIntervalS: number;
  readonly container: Container;
  readonly status: ApplicationStatus;
  readonly logger: Logger;
}

// pg-boss waits 1 s after a failed start, doubling up to 30 s: this keeps a replica whose database is
// down trying for hours, as DatabaseModule does, until the shutdown stops it.
const START_ATTEMPTS = 1000;

/**
 * The replica's side of the queue: at boot it finds the `@Job` and `@Cron` methods of the providers,
 * then connects pg-boss in the background, creates the queues, registers the schedules and works on
 * the jobs. At shutdown it takes no new job and gives the running ones `shutdownTimeoutMs` to finish;
 * past it they are failed, to be retried by another replica. @internal
 */
export class JobsRuntime
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  readonly boss: PgBoss;
  readonly #parts: JobsRuntimeParts;
  #handlers = new Map<string, JobHandler>();
  #report: ((name: string, outcome: JobOutcome) => void) | undefined;
  #started: Promise<void> | undefined;
  #stopped: Promise<void> | undefined;

  constructor(parts: JobsRuntimeParts) {
    this.#parts = parts;
    this.boss = new (loadPgBoss().PgBoss)(parts.options);
    this.boss.on('error', (error) => parts.logger.error({ err: error }, 'job queue error'));
    this.boss.on('warning', ({ message, data }) => parts.logger.warn({ data }, `job queue: ${message}`));
  }

  /** The names of the jobs and schedules this application handles. */
  get names(): readonly string[] {
    return [...this.#handlers.keys()];
  }

  /** Whether `name` is a job this application handles. */
  handles(name: string): boolean {
    return this.#handlers.get(name)?.cron === undefined && this.#handlers.has(name);
  }

  /** Finds and checks the handlers once every provider exists; a mistake in them stops the boot. */
  onModuleInit(): void {
    const { container } = this.#parts;
    const handlers = collectJobHandlers(container.instances(), (expression) => this.#cronProblem(expression));
    this.#handlers = new Map(handlers.map((handler) => [handler.name, handler]));
    const listeners = container.getAll(JOB_OUTCOME_LISTENER);
    if (listeners.length > 0) {
      this.#report = (name, outcome) => {
        for (const listener of listeners) listener(name, outcome);
      };
    }
  }

  /** Starts working after boot, unless the application runs a command (which `app.run()` says a turn later). */
  onApplicationBootstrap(): void {
    setImmediate(() => {
      if (this.#parts.status.isRunningCommand || this.#stopped) return;
      this.#started = this.#start();
      this.#started.catch((error: unknown) => {
        if (!this.#stopped) this.#parts.logger.error({ err: error }, 'the job queue could not start');
      });
    });
  }

  /**
   * Resolves once the queue is connected and its queues exist, within `waitMs`; false when it is not
   * (the database is down, or the application runs a command and never started it).
   */
  async whenStarted(waitMs: number): Promise<boolean> {
    // Right after boot the start waits for its turn of the event loop (see onApplicationBootstrap).
    if (!this.#started) await new Promise(setImmediate);
    if (!this.#started) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, waitMs, false)));
    const started = this.#started.then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([started, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Every queue's counts and the failed jobs, read through a connection of its own that works on
   * nothing and runs no schedule: what `jobs:status` prints.
   */
  async inspect(): Promise<JobsStatus> {
    const { options } = this.#parts;
    const boss = new (loadPgBoss().PgBoss)({ ...options, supervise: false, schedule: false, max: 2 });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      return await readJobsStatus(boss, options.schema);
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
  }

  /** Takes no new job from here on; the running ones get `shutdownTimeoutMs` while the server drains. */
  beforeApplicationShutdown(): void {
    this.#stop();
  }

  /** Waits for the running jobs (at most `shutdownTimeoutMs`) and closes the queue's connections. */
  async onApplicationShutdown(): Promise<void> {
    await this.#stop();
  }

  #stop(): Promise<void> {
    const timeout = Math.max(this.#parts.status.shutdownTimeoutMs, 1000);
    this.#stopped ??= this.boss.stop({ graceful: true, timeout, close: true });
    return this.#stopped;
  }

  async #start(): Promise<void> {
    const { logger, pollingIntervalS } = this.#parts;
    await this.boss.start({ attempts: START_ATTEMPTS });
    for (const handler of this.#handlers.values()) {
      const queue = { retryLimit: handler.retries, retryDelay: handler.retryDelayS, retryBackoff: true };
      // createQueue leaves an existing queue as it is: the update applies retries changed since.
      await this.boss.createQueue(handler.name, queue);
      await this.boss.updateQueue(handler.name, queue);
      if (handler.cron) await this.boss.schedule(handler.name, handler.cron);
      await this.boss.work(
        handler.name,
        { pollingIntervalSeconds: pollingIntervalS, batchSize: 1 },
        ([job]) => this.#run(handler, job),
      );
    }
    await this.#unscheduleOthers();
    logger.info({ jobs: this.names }, 'job queue started');
  }

  async #run(handler: JobHandler, job: QueueJob | undefined): Promise<void> {
    if (!job) return;
    const { id, retryCount, signal } = job;
    try {
      await handler.run(job.data, { id, name: handler.name, attempt: retryCount + 1, signal });
      this.#report?.(handler.name, 'completed');
    } catch (error) {
      const outcome = retryCount < handler.retries ? 'retried' : 'failed';
      this.#parts.logger.error(
        { err: error, job: handler.name, id, attempt: retryCount + 1, outcome },
        `job ${handler.name} failed: ${messageOf(error)}`,
      );
      this.#report?.(handler.name, outcome);
      throw error;
    }
  }

  // A @Cron removed or renamed since an earlier release would go on sending jobs that nothing runs.
  async #unscheduleOthers(): Promise<void> {
    for (const { name, key } of await this.boss.getSchedules()) {
      if (this.#handlers.get(name)?.cron === undefined) {
        await this.boss.unschedule(name, key);
        this.#parts.logger.info({ schedule: name }, 'schedule no @Cron declares any more removed');
      }
    }
  }

  #cronProblem(expression: string): string | undefined {
    try {
      this.boss.previewSchedule(expression, { count: 1 });
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  }
}
