import type { ErrorDescriber } from '../http/error-responder';
import { unavailableAnswer } from '../http/unavailable-answer';

/**
 * A limited request refused because the store failed and `failClosed` is set: no status of its
 * own, so that it answers through the describer below, logged by the store's failures, not once a
 * request.
 */
export class RateLimitUnavailableError extends Error {
  constructor(route: string, options: { cause: unknown }) {
    super(`${route}: the rate limit store failed, and failClosed refuses the request`, options);
    this.name = 'RateLimitUnavailableError';
  }
}

const UNAVAILABLE = unavailableAnswer('rate limit unavailable', 1);

/**
 * 503 `{"error":"rate limit unavailable"}` with `Retry-After: 1` for a request refused by a failed
 * store; undefined for any other error.
 *
 * @example
 * describeError(new RateLimitUnavailableError('OrderController.store', { cause }), [describeRateLimitUnavailable]);
 */
export const describeRateLimitUnavailable: ErrorDescriber = (error) =>
  error instanceof RateLimitUnavailableError ? UNAVAILABLE : undefined;
