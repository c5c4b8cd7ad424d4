import { answerOf, type ErrorAnswer } from './error-responder';

/**
 * A 503 of `message` with `Retry-After`, from the catalogue's entry for a dependency that is
 * away for now: the request may succeed on a retry, so it is not a 500. Logged at `debug`: the
 * dependency's own failure is logged where it arises, once, not once a request.
 *
 * @example
 * const UNAVAILABLE = unavailableAnswer(DatabaseAnswers.databaseUnavailable, 2);
 */
export function unavailableAnswer(
  entry: { readonly code: string; readonly status: 503; readonly message: () => string },
  retryAfterS: number,
): ErrorAnswer {
  return Object.freeze({
    ...answerOf(entry),
    headers: Object.freeze({ 'Retry-After': String(retryAfterS) }),
    logLevel: 'debug',
  });
}
