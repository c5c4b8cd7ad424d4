import { FrameworkError } from '../errors/framework-error';
import { RateLimitErrors } from '../errors/rate-limit-errors';
import type { ErrorDescriber } from '../http/error-responder';
import { unavailableAnswer } from '../http/unavailable-answer';

/**
 * A limited request refused because the store failed and `failClosed` is set: no status of its
 * own, so that it answers through the describer below, logged by the store's failures, not once a
 * request.
 */
export class RateLimitUnavailableError extends FrameworkError<typeof RateLimitErrors.storeRefused.code> {
  constructor(route: string, options: { cause: unknown }) {
    super(RateLimitErrors.storeRefused.code, RateLimitErrors.storeRefused.message(route), options);
    this.name = 'RateLimitUnavailableError';
  }
}

const UNAVAILABLE = unavailableAnswer(RateLimitErrors.rateLimitUnavailable, 1);

/**
 * 503 `{"error":"rate limit unavailable"}` with `Retry-After: 1` for a request refused by a failed
 * store; undefined for any other error.
 *
 * @example
 * describeError(new RateLimitUnavailableError('OrderController.store', { cause }), [describeRateLimitUnavailable]);
 */
export const describeRateLimitUnavailable: ErrorDescriber = (error) =>
  error instanceof RateLimitUnavailableError ? UNAVAILABLE : undefined;
