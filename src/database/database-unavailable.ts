import { FrameworkError } from '../errors/framework-error';
import { DatabaseAnswers } from '../errors/database-answers';
import { DatabaseErrors } from '../errors/database-errors';
import type { ErrorAnswer } from '../http/error-responder';
import { unavailableAnswer } from '../http/unavailable-answer';

// Shorter than an orchestrator's readiness period (10 s in the sample's manifests): a client comes
// back about when the balancer has learned of the outage, without hammering a database that blinked.
const RETRY_AFTER_S = 2;

// Logged once per outage by the database's own bounds, so not once per request.
const UNAVAILABLE = unavailableAnswer(DatabaseAnswers.databaseUnavailable, RETRY_AFTER_S);

/**
 * A query that got no answer within `queryTimeoutMs`; its connection was closed, so the pool never
 * hands it out again.
 *
 * @example
 * callback(new QueryTimeoutError(5000));
 */
export class QueryTimeoutError extends FrameworkError<typeof DatabaseErrors.queryTimeout.code> {
  constructor(timeoutMs: number) {
    super(DatabaseErrors.queryTimeout.code, DatabaseErrors.queryTimeout.message(timeoutMs));
    this.name = 'QueryTimeoutError';
  }
}

// Socket errors: the server refused, reset, or could not be reached.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATE codes of PostgreSQL (and the embedded database): class 08 (connection exception), the
// server shutting down or starting, too many connections, and a statement cancelled by
// `statement_timeout`, which keel sets to `queryTimeoutMs`.
const SQLSTATES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08P01',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);

// mysql2's codes for the same conditions, and MariaDB's and MySQL's own.
const MYSQL_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_STATEMENT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
]);

// The same by number, for the codes mysql2 has no name for (MariaDB's 1927, a killed connection):
// too many connections, server shutdown, connection killed, MariaDB's and MySQL's statement timeouts.
const MYSQL_ERRNOS = new Set([1040, 1053, 1927, 1969, 3024]);

// Drivers that say it only in words: pg's and pg-pool's, and mysql2's for a closed connection.
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Query read timeout',
  "Can't add new command when connection is in closed state",
  'Pool is closed',
];

const CODES = new Set<string>([
  ...SOCKET_CODES,
  ...SQLSTATES,
  ...MYSQL_CODES,
  DatabaseErrors.queryTimeout.code,
]);

/**
 * True when `error` (or the driver error or cause inside it) says the database could not be reached
 * or did not answer in time, rather than that the query was wrong: refused, reset, terminated, timed
 * out, shutting down. Reads pg, mysql2 and TypeORM's `QueryFailedError`.
 *
 * @example
 * if (isDatabaseUnavailable(error)) outage.failed(error);
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let depth = 0, current = error; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return false;
    const { code, errno, message, driverError, cause, errors } = current as {
      code?: unknown;
      errno?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && CODES.has(code)) return true;
    if (typeof errno === 'number' && MYSQL_ERRNOS.has(errno)) return true;
    if (typeof message === 'string' && MESSAGES.some((text) => message.includes(text))) return true;
    // Node reports a refused connection to a name with several addresses as an AggregateError.
    current = driverError ?? cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return false;
}

/**
 * The 503 answer, with `Retry-After`, for an error that says the database is unavailable
 * ({@link isDatabaseUnavailable}); undefined for every other error.
 *
 * @example
 * describeDatabaseUnavailable(refused); // { status: 503, message: 'database unavailable', headers: { 'Retry-After': '2' }, logLevel: 'debug' }
 */
export function describeDatabaseUnavailable(error: unknown): ErrorAnswer | undefined {
  return isDatabaseUnavailable(error) ? UNAVAILABLE : undefined;
}
