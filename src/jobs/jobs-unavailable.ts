import type { ErrorAnswer, ErrorDescriber } from '../http/error-responder';
import { FrameworkError } from '../framework-error';

const UNAVAILABLE: ErrorAnswer = Object.freeze({
  status: 503,
  message: 'job queue unavailable',
  headers: Object.freeze({ 'Retry-After': '2' }),
  // The queue's own connection errors are logged where it fails, not once a request.
  logLevel: 'debug',
});

/**
 * 503 `{"error":"job queue unavailable"}` with `Retry-After` for a request whose `enqueue` found the
 * queue not connected (its database unreachable since boot): the request may succeed on a retry, so
 * it is not a 500. Undefined for any other error.
 *
 * @example
 * describeError(JobErrors.notStarted(5000), [describeJobsUnavailable]); // { status: 503, ... }
 */
export const describeJobsUnavailable: ErrorDescriber = (error) =>
  error instanceof FrameworkError && error.code === 'E_JOBS_UNAVAILABLE' ? UNAVAILABLE : undefined;
