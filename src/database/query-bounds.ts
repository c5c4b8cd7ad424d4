import type { DataSourceOptions } from 'typeorm';
import type { Client as PgClient } from 'pg';
import { boundedMysql, type MysqlModule } from './mysql-bounds';
import { boundedPgClient } from './pg-bounds';
import type { QueryBound } from './query-bound';

/** How long a pooled socket stays idle before TCP keep-alive starts probing its peer. */
export const KEEP_ALIVE_DELAY_MS = 10_000;

type Options = Record<string, unknown>;

// Each driver's way to bound its queries, keep its sockets alive, and stop the server's own work
// on a query the client gave up on. Drivers missing here are left as they are.
const BOUNDS: Partial<Record<DataSourceOptions['type'], (options: Options, bound: QueryBound) => Options>> = {
  postgres: (options, bound) => {
    const pg = (options.driver ?? load('pg')) as { Client: typeof PgClient };
    return {
      ...options,
      extra: {
        Client: boundedPgClient(pg, bound),
        keepAlive: true,
        keepAliveInitialDelayMillis: KEEP_ALIVE_DELAY_MS,
        // The server cancels the statement too, so a query the client gave up on stops its work.
        statement_timeout: bound.timeoutMs,
        ...(options.extra as Options | undefined),
      },
    };
  },
  mysql: boundMysql,
  mariadb: boundMysql,
};

function boundMysql(options: Options, bound: QueryBound): Options {
  const mysql = (options.driver ?? load('mysql2')) as MysqlModule;
  return {
    ...options,
    driver: boundedMysql(mysql, bound),
    extra: {
      enableKeepAlive: true,
      keepAliveInitialDelay: KEEP_ALIVE_DELAY_MS,
      ...(options.extra as Options | undefined),
    },
  };
}

function load(driver: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver the options name, loaded only for them
  return require(driver);
}

/**
 * `options` with every query bounded by `bound.timeoutMs` (a query without an answer in time fails,
 * and its connection is closed rather than returned to the pool) and TCP keep-alive on the pool's
 * sockets, for PostgreSQL, the embedded database, MySQL and MariaDB. Settings the options' `extra`
 * already has are kept.
 *
 * @example
 * new DataSource(withQueryBounds({ type: 'postgres', url }, { timeoutMs: 5000, outage }));
 */
export function withQueryBounds(options: DataSourceOptions, bound: QueryBound): DataSourceOptions {
  const bounded = BOUNDS[options.type]?.(options as unknown as Options, bound);
  return (bounded as DataSourceOptions | undefined) ?? options;
}
