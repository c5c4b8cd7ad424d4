import type { EntityManager } from 'typeorm';
import { hasDatabaseServer } from '../database/database-server';
import { JobErrors } from '../errors/job-errors';
import type { JobsRuntime } from './jobs-runtime';
import { keyedJobId } from './keyed-job-id';
import { transactionDb, type QueueLocation } from './transaction-enqueue';

/** How `enqueue` places a job. */
export interface EnqueueOptions {
  /** Run it no sooner than this many seconds from now. Default: as soon as a replica is free. */
  readonly delayS?: number;
  /**
   * Enqueue it once per key: while a job of this name with this key is kept (waiting, running,
   * failed, or up to 7 days after it completed), another enqueue with the key adds nothing.
   */
  readonly singletonKey?: string;
  /**
   * The `EntityManager` of an open transaction of the application's `DataSource`: the job is stored
   * by that transaction, so it exists if and only if the transaction commits. The queue must live in
   * the application's database (`JobsModule.forRoot()` without a `url` naming another server).
   */
  readonly transaction?: EntityManager;
}

// How long an enqueue waits for the queue to connect, right after boot or while the database is away.
const START_WAIT_MS = 5000;

/**
 * Enqueues jobs that one replica runs, kept in PostgreSQL until done: they survive a restart of
 * every replica, and a failing one is retried with backoff. Injectable where `JobsModule` is imported.
 *
 * @example
 * constructor(private readonly jobs: Jobs) {}
 * await this.jobs.enqueue('send-welcome', { to: 'ada@example.com' }, { delayS: 10 });
 */
export class Jobs {
  readonly #runtime: JobsRuntime;
  readonly #queue: QueueLocation;

  /** @internal `JobsModule` makes it */
  constructor(runtime: JobsRuntime, queue: QueueLocation) {
    this.#runtime = runtime;
    this.#queue = queue;
  }

  /**
   * Enqueues the job `name` with `data` (kept as JSON) and resolves with its id once it is stored,
   * or with `null` when `singletonKey` found one already. A name no `@Job` handles throws. With
   * `transaction`, "stored" means stored by that transaction: the job is kept if it commits.
   * @example const id = await jobs.enqueue('send-welcome', { to }, { singletonKey: `welcome-${order.id}` })
   * @example
   * await dataSource.transaction(async (manager) => {
   *   const order = await manager.save(Order, input);
   *   await jobs.enqueue('order-confirmation', { orderId: order.id }, { transaction: manager });
   * });
   */
  async enqueue(name: string, data: object = {}, options: EnqueueOptions = {}): Promise<string | null> {
    if (!this.#runtime.handles(name)) throw JobErrors.unknownJob(name, this.#runtime.names);
    const { delayS, singletonKey, transaction } = options;
    if (delayS !== undefined && !(typeof delayS === 'number' && delayS >= 0 && Number.isFinite(delayS))) {
      throw JobErrors.invalidEnqueueOption(name, 'delayS', delayS, 'a number of seconds from 0');
    }
    if (singletonKey !== undefined && (typeof singletonKey !== 'string' || singletonKey === '')) {
      throw JobErrors.invalidEnqueueOption(name, 'singletonKey', singletonKey, 'a non-empty string');
    }
    const db = transaction === undefined ? undefined : transactionDb(name, transaction, this.#queue);
    // On a database the application serves itself, the caller's open transaction holds every other
    // connection back, the queue's start included: waiting for it could only time out.
    if (transaction && hasDatabaseServer(transaction.dataSource)) {
      if (!(await this.#runtime.whenStarted(0))) throw JobErrors.notStartedForTransaction();
    } else if (!(await this.#runtime.whenStarted(START_WAIT_MS))) {
      throw JobErrors.notStarted(START_WAIT_MS);
    }
    return this.#runtime.send(name, data, {
      ...(delayS ? { startAfter: delayS } : {}),
      ...(singletonKey === undefined ? {} : { id: keyedJobId(name, singletonKey) }),
      ...(db ? { db } : {}),
    });
  }
}
