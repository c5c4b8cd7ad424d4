import { DatabaseAnswers } from '../errors/database-answers';
import type { ErrorAnswer } from '../http/error-responder';
import type { Logger } from '../logging/logger';

/** What a repository guard asks of the connection. */
export interface ConnectionState {
  /** True once the `DataSource` is initialised and no `initialize()` is still running. */
  readonly isConnected: boolean;
  /** Whole seconds until the next connection attempt, at least 1. */
  readonly retryAfterSeconds: number;
}

/**
 * The error a request meets when it needs the database before it is connected, rather than
 * TypeORM's missing-metadata error, which reads like a missing entity: answered 503 with
 * `Retry-After` by {@link describeDatabaseNotConnected}.
 *
 * @example
 * throw new DatabaseNotConnectedError(5);
 */
export class DatabaseNotConnectedError extends Error {
  readonly code = DatabaseAnswers.databaseNotConnected.code;

  constructor(readonly retryAfterSeconds: number) {
    super(DatabaseAnswers.databaseNotConnected.message(retryAfterSeconds));
    this.name = 'DatabaseNotConnectedError';
  }
}

/**
 * A {@link DatabaseNotConnectedError} for a request that needs the database now.
 *
 * @example
 * throw databaseNotConnected(5);
 */
export function databaseNotConnected(retryAfterSeconds: number): DatabaseNotConnectedError {
  return new DatabaseNotConnectedError(retryAfterSeconds);
}

/**
 * The 503 `{"error":"database not connected"}` with `Retry-After` for a {@link DatabaseNotConnectedError};
 * logged at `debug`, since the repository guard says it once, at `warn`, until the database connects:
 * a replica that is starting is not failing. Undefined for every other error.
 *
 * @example
 * describeDatabaseNotConnected(databaseNotConnected(2)); // { status: 503, message: 'database not connected', ... }
 */
export function describeDatabaseNotConnected(error: unknown): ErrorAnswer | undefined {
  const retryAfterSeconds =
    error instanceof DatabaseNotConnectedError
      ? error.retryAfterSeconds
      : isDriverNotConnected(error)
        ? DRIVER_NOT_CONNECTED_RETRY_S
        : undefined;
  if (retryAfterSeconds === undefined) return undefined;
  return {
    status: DatabaseAnswers.databaseNotConnected.status,
    message: DatabaseAnswers.databaseNotConnected.message(retryAfterSeconds),
    code: DatabaseAnswers.databaseNotConnected.code,
    headers: { 'Retry-After': String(retryAfterSeconds) },
    logLevel: 'debug',
  };
}

// What the guard cannot intercept (`dataSource.transaction(...)`, a query runner) meets TypeORM's own
// error before the first connection; the connection attempt it waits for is seconds away at most.
const DRIVER_NOT_CONNECTED_RETRY_S = 2;

function isDriverNotConnected(error: unknown): boolean {
  return error instanceof Error && error.message === 'Driver not Connected';
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
