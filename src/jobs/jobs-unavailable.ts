import type { ErrorDescriber } from '../http/error-responder';
import { unavailableAnswer } from '../http/unavailable-answer';
import { FrameworkError } from '../errors/framework-error';
import { JobErrors } from '../errors/job-errors';

// The queue's own connection errors are logged where it fails, not once a request.
const UNAVAILABLE = unavailableAnswer(JobErrors.jobQueueUnavailable, 2);
const NOT_STARTED_CODES: ReadonlySet<string> = new Set([
  JobErrors.notStarted.code,
  JobErrors.notStartedForTransaction.code,
]);

/**
 * 503 `{"error":"job queue unavailable"}` with `Retry-After` for a request whose `enqueue` found the
 * queue not connected (its database unreachable since boot): the request may succeed on a retry, so
 * it is not a 500. Undefined for any other error.
 *
 * @example
 * describeError(JobErrors.notStarted(5000), [describeJobsUnavailable]); // { status: 503, ... }
 */
export const describeJobsUnavailable: ErrorDescriber = (error) =>
  error instanceof FrameworkError && NOT_STARTED_CODES.has(error.code) ? UNAVAILABLE : undefined;
