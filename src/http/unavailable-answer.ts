import type { ErrorAnswer } from './error-responder';

/**
 * A 503 `{"error": message}` with `Retry-After`, for a dependency that is away for now: the request may
 * succeed on a retry, so it is not a 500. Logged at `debug`: the dependency's own failure is logged
 * where it arises, once, not once a request.
 *
 * @example
 * const UNAVAILABLE = unavailableAnswer('database unavailable', 2);
 */
export function unavailableAnswer(message: string, retryAfterS: number): ErrorAnswer {
  return Object.freeze({
    status: 503,
    message,
    headers: Object.freeze({ 'Retry-After': String(retryAfterS) }),
    logLevel: 'debug',
  });
}
