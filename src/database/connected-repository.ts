import { DatabaseAnswers } from '../errors/database-answers';
import type { HttpError } from '../errors';
import type { Logger } from '../logging/logger';

/** What a repository guard asks of the connection. */
export interface ConnectionState {
  /** True once the `DataSource` is initialised and no `initialize()` is still running. */
  readonly isConnected: boolean;
  /** Whole seconds until the next connection attempt, at least 1. */
  readonly retryAfterSeconds: number;
}

/**
 * The error a request meets when it needs the database before it is connected: 503 with
 * `Retry-After`, rather than TypeORM's missing-metadata error, which reads like a missing entity.
 *
 * @example
 * throw databaseNotConnected(5);
 */
export function databaseNotConnected(retryAfterSeconds: number): HttpError {
  return DatabaseAnswers.databaseNotConnected(retryAfterSeconds);
}

/**
 * `repository` with every method refusing with {@link databaseNotConnected} while the database is
 * not connected yet, and logging, once until it connects, that requests wait on it.
 *
 * @example
 * const orders = connectedRepository(dataSource.getRepository(Order), connector, logger);
 */
export function connectedRepository<T extends object>(
  repository: T,
  state: ConnectionState,
  logger: Logger,
): T {
  let hasLogged = false;
  const refuse = (): never => {
    if (!hasLogged) {
      hasLogged = true;
      logger.warn({}, 'a request needed the database, which is still connecting: answered 503');
    }
    throw databaseNotConnected(state.retryAfterSeconds);
  };
  return new Proxy(repository, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return function guarded(this: unknown, ...args: unknown[]): unknown {
        if (!state.isConnected) return refuse();
        hasLogged = false;
        return Reflect.apply(value, this === receiver ? target : this, args);
      };
    },
  });
}
