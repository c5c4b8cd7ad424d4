import type { DataSource } from 'typeorm';
import { abandonAfter, breakConnectingConnections, breakConnection } from '../orm/connection-breaker';
import { initializeOnce, pendingInitialization } from '../database/initialize-once';
import { migrationsOnConnect } from '../migrations/migrations-on-connect';
import { messageOf } from '../errors/describe-value';
import { settleWithin } from '../lifecycle/settle-within';
import { pingQuery } from './ping-queries';

/**
 * Finds the `DataSource` readiness checks: called at check time, never before, so it may be sync
 * or async, throw, or find nothing yet.
 *
 * @example
 * const resolveDataSource: DataSourceResolver = () => app.get(DataSource);
 */
export type DataSourceResolver = () => DataSource | null | undefined | Promise<DataSource | null | undefined>;

/** The outcome of one readiness check: `reason` is `connected`, or why the database is not ready. */
export interface ReadinessReport {
  readonly isReady: boolean;
  readonly reason: string;
}

/** The reason readiness gives while the database's migrations run or wait for their lock. */
export const MIGRATING = 'migrating';

// A ping or connection attempt outstanding this many timeouts is taken for lost: its connection is
// closed (where the driver allows it) so the next check can start afresh.
const ABANDON_AFTER_TIMEOUTS = 10;

/**
 * Checks that the database answers: resolves the `DataSource`, starts its `initialize()` if it has
 * not run (one at a time), and pings it with its dialect's query on a connection of its own. While
 * `DatabaseModule` runs the migrations (or waits for their lock) it reports `migrating` at once;
 * after they failed, their error.
 * Concurrent checks share the one attempt in flight, so a hung database never has more than one ping
 * outstanding from here; each check waits for it at most `timeoutMs`. An attempt still outstanding
 * after ten timeouts has its connection closed, so a connection the network dropped silently cannot
 * hold readiness at 503 once the database is back.
 *
 * @example
 * const readiness = new ReadinessCheck(() => dataSource, 500);
 * const { isReady, reason } = await readiness.check();
 */
export class ReadinessCheck {
  readonly #resolve: DataSourceResolver;
  readonly #timeoutMs: number;
  #inFlight: Promise<ReadinessReport> | undefined;

  constructor(resolve: DataSourceResolver, timeoutMs: number) {
    this.#resolve = resolve;
    this.#timeoutMs = timeoutMs;
  }

  /** Reports on the database within `timeoutMs`; never rejects. @example await readiness.check() */
  check(): Promise<ReadinessReport> {
    this.#inFlight ??= this.#attempt().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#within(this.#inFlight);
  }

  async #attempt(): Promise<ReadinessReport> {
    try {
      const dataSource = await this.#resolve();
      if (!dataSource) return { isReady: false, reason: 'no DataSource was found' };
      const migrations = migrationsOnConnect(dataSource);
      // Failed migrations are run again by the connector, with its backoff: readiness reports
      // their error until then rather than starting them again at every probe.
      const failure = pendingInitialization(dataSource) ? undefined : migrations?.failure;
      if (failure !== undefined) return { isReady: false, reason: messageOf(failure) };
      const connecting = this.#abandoningIfLost(initializeOnce(dataSource), (reason) =>
        breakConnectingConnections(dataSource, reason),
      );
      // Settled here whatever becomes of it: this check may answer before it does.
      connecting.catch(() => undefined);
      await Promise.race([connecting, migrations?.started ?? connecting]);
      if (migrations?.isMigrating) return { isReady: false, reason: MIGRATING };
      await connecting;
      const runner = dataSource.createQueryRunner();
      try {
        await this.#abandoningIfLost(runner.query(pingQuery(dataSource.options.type)), (reason) =>
          breakConnection(runner, reason),
        );
      } finally {
        await runner.release();
      }
      return { isReady: true, reason: 'connected' };
    } catch (error) {
      return { isReady: false, reason: messageOf(error) };
    }
  }

  #abandoningIfLost<T>(work: Promise<T>, abandon: (reason: Error) => boolean): Promise<T> {
    const afterMs = this.#timeoutMs * ABANDON_AFTER_TIMEOUTS;
    return abandonAfter(work, afterMs, `no answer after ${afterMs} ms`, abandon);
  }

  #within(attempt: Promise<ReadinessReport>): Promise<ReadinessReport> {
    const reason = `timeout after ${this.#timeoutMs} ms`;
    return settleWithin(attempt, this.#timeoutMs, () => ({ isReady: false, reason }));
  }
}
