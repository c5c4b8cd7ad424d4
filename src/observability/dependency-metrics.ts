import { Container } from '../container/container';
import { DatabaseConnector } from '../database/database-connector';
import { poolConnections } from '../database/pool-connections';
import { Injectable } from '../decorators/injectable';
import { READINESS } from '../health/readiness-source';
import { Metrics } from './metrics';

/**
 * `keel_readiness{check}` and `keel_database_pool_connections{state}`, read at scrape time and
 * never in between: readiness through `HealthModule`'s own checks (single-flight, bounded, so a
 * scrape adds no check to a probe running at the same time), the pool from the `DataSource`'s
 * driver. Without `HealthModule` or `DatabaseModule` the series have no samples.
 *
 * @example
 * new DependencyMetrics(metrics, container);
 */
@Injectable()
export class DependencyMetrics {
  constructor(metrics: Metrics, container: Container) {
    metrics.gauge({
      name: 'keel_readiness',
      help: 'Whether each dependency readiness checks answers (1) or not (0): db and every named check',
      labelNames: ['check'],
      async collect() {
        this.reset();
        if (!container.has(READINESS)) return;
        const { db, checks } = await container.get(READINESS).evaluate();
        this.set({ check: 'db' }, db.isReady ? 1 : 0);
        for (const { name, isHealthy } of checks) this.set({ check: name }, isHealthy ? 1 : 0);
      },
    });
    metrics.gauge({
      name: 'keel_database_pool_connections',
      help: "The database pool's connections (total, idle) and the queries waiting for one",
      labelNames: ['state'],
      collect() {
        this.reset();
        // DatabaseModule's connector, rather than the DataSource token: asking for that would load
        // TypeORM into an application that has no database.
        const connector = container.has(DatabaseConnector) ? container.get(DatabaseConnector) : undefined;
        const pool = connector ? poolConnections(connector.dataSource) : undefined;
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }
}
