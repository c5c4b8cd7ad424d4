import { boundCallback, type QueryBound, type QueryCallback } from './query-bound';
import { isSchemaWork } from '../orm/schema-work';

interface MysqlConnection {
  query(sql: unknown, values?: unknown, callback?: unknown): unknown;
  execute(sql: unknown, values?: unknown, callback?: unknown): unknown;
  destroy(): void;
}

type GetConnection = (callback: (error: Error | null, connection?: unknown) => void) => void;

interface MysqlPool {
  on(event: 'connection', listener: (connection: MysqlConnection) => void): unknown;
  getConnection: GetConnection;
}

/** The part of mysql2's module TypeORM uses to open its pool. */
export interface MysqlModule {
  createPool(options: object): MysqlPool;
}

/**
 * mysql2's module with every pool it creates bounding each query of its connections by
 * `bound.timeoutMs`: a query that gets no answer in time fails with `QueryTimeoutError` and its
 * connection is destroyed, which takes it out of the pool. Given to TypeORM as the `driver` option.
 * Queries read as streams (no callback) and schema work (`runSchemaWork`) are left unbounded.
 *
 * @example
 * new DataSource({ type: 'mariadb', driver: boundedMysql(require('mysql2'), { timeoutMs: 5000, outage }) });
 */
export function boundedMysql<Module extends MysqlModule>(mysql: Module, bound: QueryBound): Module {
  return Object.assign(Object.create(mysql) as Module, {
    createPool(options: object): MysqlPool {
      const pool = mysql.createPool(options);
      pool.on('connection', (connection) => {
        connection.query = boundMethod(connection, connection.query, bound);
        connection.execute = boundMethod(connection, connection.execute, bound);
      });
      // A connection that cannot be opened (refused, timed out) is the first sign of an outage.
      const getConnection = pool.getConnection.bind(pool);
      pool.getConnection = (callback) =>
        getConnection((error, connection) => {
          if (error) bound.outage.observe(error);
          callback(error, connection);
        });
      return pool;
    },
  });
}

function boundMethod(
  connection: MysqlConnection,
  method: MysqlConnection['query'],
  bound: QueryBound,
): MysqlConnection['query'] {
  return function boundedQuery(this: unknown, sql: unknown, values?: unknown, callback?: unknown): unknown {
    const given = (typeof values === 'function' ? values : callback) as QueryCallback | undefined;
    if (!given || isSchemaWork()) return method.call(connection, sql, values, callback);
    const bounded = boundCallback(given, bound, () => connection.destroy());
    return typeof values === 'function'
      ? method.call(connection, sql, bounded)
      : method.call(connection, sql, values, bounded);
  };
}
