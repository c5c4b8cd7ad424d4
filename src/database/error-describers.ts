import type { ErrorDescriber } from '../http/error-responder';
import { describeDatabaseNotConnected } from './connected-repository';
import { describeDatabaseInputError } from './database-input-errors';
import { describeDatabaseUnavailable } from './database-unavailable';

/**
 * What database errors mean to the client, asked in this order by keel's responder for an error
 * with no status of its own. The application hands this list to the responder whether or not it
 * imports `DatabaseModule`: a handler that runs its own TypeORM queries gets the same answers.
 *
 * @example
 * describeError(queryFailed, DATABASE_ERROR_DESCRIBERS); // { status: 409, message: 'value already exists: ...' }
 */
export const DATABASE_ERROR_DESCRIBERS: readonly ErrorDescriber[] = [
  describeDatabaseNotConnected,
  // A database that cannot be reached is 503 whatever the query: asked before the input errors.
  describeDatabaseUnavailable,
  describeDatabaseInputError,
];
