import type { DataSource } from 'typeorm';

/** How many connections a `DataSource`'s pool holds, how many of them are idle, and how many queries wait for one. */
export interface PoolConnections {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/** node-postgres's pool, as TypeORM's postgres driver holds it (`driver.master`). */
interface PgPool {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** mysql2's (and mysql's) pool, as TypeORM's mysql driver holds it (`driver.pool`): its counts are its queues. */
interface MysqlPool {
  readonly _allConnections: { readonly length: number };
  readonly _freeConnections: { readonly length: number };
  readonly _connectionQueue: { readonly length: number };
}

/**
 * The counts of `dataSource`'s connection pool as they are now, read from the pool itself (nothing
 * is counted on the side); undefined while there is no pool (not connected yet, or destroyed), or
 * for a driver whose pool keel cannot read.
 *
 * @example
 * poolConnections(dataSource) // { total: 4, idle: 3, waiting: 0 }
 */
export function poolConnections(dataSource: DataSource): PoolConnections | undefined {
  const driver = dataSource.driver as { master?: unknown; pool?: unknown } | undefined;
  const pg = driver?.master as Partial<PgPool> | undefined;
  if (typeof pg?.totalCount === 'number') {
    return { total: pg.totalCount, idle: pg.idleCount ?? 0, waiting: pg.waitingCount ?? 0 };
  }
  const mysql = driver?.pool as Partial<MysqlPool> | undefined;
  if (mysql?._allConnections !== undefined) {
    return {
      total: mysql._allConnections.length,
      idle: mysql._freeConnections?.length ?? 0,
      waiting: mysql._connectionQueue?.length ?? 0,
    };
  }
  return undefined;
}
