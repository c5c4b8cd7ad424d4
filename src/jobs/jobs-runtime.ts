import type { Container } from '../container/container';
import { messageOf } from '../errors/describe-value';
import { settleWithin } from '../lifecycle/settle-within';
import type { ApplicationStatus } from '../lifecycle/application-status';
import type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '../lifecycle/lifecycle-hooks';
import type { Logger } from '../logging/logger';
import { collectJobHandlers, type JobHandler } from './job-handlers';
import { workOn } from './job-workers';
import { JOB_OUTCOME_LISTENER, type JobOutcome } from './job-outcomes';
import { readJobsStatus, type JobsStatus } from './jobs-status';
import { loadPgBoss, type PgBoss, type PgBossOptions, type QueueJob } from './pg-boss';

/** What a {@link JobsRuntime} works with. @internal */
export interface JobsRuntimeParts {
  /** pg-boss's options but the connection. */
  readonly options: PgBossOptions;
  /** Where to connect, known once the application's database server (the embedded one) runs. */
  readonly connection: () => Promise<object>;
  readonly pollingIntervalS: number;
  readonly heartbeatTimeoutS: number;
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
 * past it they are failed, to be retried by another replica. Its connections close only after the
 * requests in flight, which may still enqueue. @internal
 */
export class JobsRuntime
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  readonly #parts: JobsRuntimeParts;
  // Never connected: it reads cron expressions as the queue will, at boot, before any connection.
  readonly #scheduleReader: PgBoss;
  #boss: PgBoss | undefined;
  #handlers = new Map<string, JobHandler>();
  #report: ((name: string, outcome: JobOutcome) => void) | undefined;
  #markStarting: ((start: Promise<void>) => void) | undefined;
  // Settles once the start that onApplicationBootstrap begins has: a job enqueued right after boot waits for it.
  readonly #started = new Promise<void>((resolve) => (this.#markStarting = resolve));
  // The start onApplicationBootstrap began, if it did: a command, or a shutdown before serving, begins none.
  #starting: Promise<void> | undefined;
  // Set once the start has finished: an enqueue after that, in a request, races no timer.
  #isStarted = false;
  #stopping = false;
  #stopped: Promise<void> | undefined;

  constructor(parts: JobsRuntimeParts) {
    this.#parts = parts;
    this.#scheduleReader = new (loadPgBoss().PgBoss)({ ...parts.options, schedule: false, supervise: false });
    this.#started.catch(() => undefined);
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

  /** Starts working, in the background, once the application is about to serve (never for a command). */
  onApplicationBootstrap(): void {
    if (this.#stopping) return;
    const start = this.#start();
    start.catch((error: unknown) => {
      if (!this.#stopping) this.#parts.logger.error({ err: error }, 'the job queue could not start');
    });
    this.#starting = start;
    this.#markStarting?.(start);
  }

  /**
   * True once the queue is connected and its queues exist, within `waitMs`; false when its start
   * failed, or has not finished in time (the database is down, or the application does not serve).
   */
  whenStarted(waitMs: number): Promise<boolean> {
    if (this.#isStarted) return Promise.resolve(true);
    const started = this.#started.then(
      () => true,
      () => false,
    );
    return settleWithin(started, waitMs, () => false);
  }

  /** Stores a job for the queue `name`; resolves with its id, or null when its id is taken. Only once started. */
  send(name: string, data: object, options: object): Promise<string | null> {
    if (!this.#boss) throw new Error('the job queue has not started');
    return this.#boss.send(name, data, options);
  }

  /**
   * Every queue's counts and the failed jobs, read through a connection of its own that works on
   * nothing and runs no schedule: what `jobs:status` prints.
   */
  async inspect(): Promise<JobsStatus> {
    const { options, connection } = this.#parts;
    const boss = new (loadPgBoss().PgBoss)({
      ...options,
      ...(await connection()),
      supervise: false,
      schedule: false,
      max: 2,
    });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      return await readJobsStatus(boss, options.schema);
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
  }

  /**
   * Takes no new job from here on; the running ones get `shutdownTimeoutMs` while the server drains.
   * The queue's connections stay open: a request still in flight enqueues through them.
   */
  beforeApplicationShutdown(): void {
    // onApplicationShutdown awaits the same promise, and reports its failure then.
    this.#stopWorking().catch(() => undefined);
  }

  /** Once the requests have finished: waits for the running jobs (at most `shutdownTimeoutMs`) and closes the queue's connections. */
  async onApplicationShutdown(): Promise<void> {
    await this.#stopWorking();
    // pg-boss, stopped without closing, closes its pool on this second stop.
    await this.#boss?.stop({ close: true });
  }

  #stopWorking(): Promise<void> {
    this.#stopping = true;
    const timeout = Math.max(this.#parts.status.shutdownTimeoutMs, 1000);
    this.#stopped ??= (async () => {
      // Until the connection is known there is no client, only the wait for it, which ends soon.
      // A client that is still retrying its start is stopped at once: pg-boss gives up the retries.
      if (!this.#boss) await this.#starting?.catch(() => undefined);
      await this.#boss?.stop({ graceful: true, timeout, close: false });
    })();
    return this.#stopped;
  }

  async #start(): Promise<void> {
    const { logger, pollingIntervalS, heartbeatTimeoutS, options, connection } = this.#parts;
    const boss = new (loadPgBoss().PgBoss)({ ...options, ...(await connection()) });
    if (this.#stopping) return;
    boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
    boss.on('warning', ({ message, data }) => logger.warn({ data }, `job queue: ${message}`));
    this.#boss = boss;
    await boss.start({ attempts: START_ATTEMPTS });
    for (const handler of this.#handlers.values()) {
      await workOn(boss, handler, { pollingIntervalS, heartbeatTimeoutS }, (job) => this.#run(handler, job));
    }
    await this.#unscheduleOthers(boss);
    this.#isStarted = true;
    logger.info({ jobs: this.names }, 'job queue started');
  }

  async #run(handler: JobHandler, job: QueueJob): Promise<void> {
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
  async #unscheduleOthers(boss: PgBoss): Promise<void> {
    for (const { name, key } of await boss.getSchedules()) {
      if (this.#handlers.get(name)?.cron === undefined) {
        await boss.unschedule(name, key);
        this.#parts.logger.info({ schedule: name }, 'schedule no @Cron declares any more removed');
      }
    }
  }

  #cronProblem(expression: string): string | undefined {
    try {
      this.#scheduleReader.previewSchedule(expression, { count: 1 });
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  }
}
