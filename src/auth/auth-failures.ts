import { AuthErrors } from '../errors/auth-errors';
import type { HttpError } from '../errors/http-error';
import type { Logger } from '../logging/logger';
import type { Counter } from '../observability/metrics';

/** One refused request, as the log and the metric tell it. */
export interface AuthRefusal {
  /** The strategy that refused it; for a request with no credentials, every strategy the route takes. */
  readonly strategy: string;
  /** Why, in a word: `expired`, `bad_signature`, `revoked`, `unknown_user`, `missing`... */
  readonly reason: string;
  readonly route: string;
  /** The 401's `WWW-Authenticate`. */
  readonly challenge: string;
}

/**
 * Where authentication failures go: the log (the reason, never the answer), and
 * `keel_auth_failures_total{strategy,reason}` with `MetricsModule`. @internal
 *
 * @example
 * throw failures.refuse({ strategy: 'jwt', reason: 'expired', route, challenge: 'Bearer' });
 */
export class AuthFailures {
  readonly #logger: Logger;
  readonly #counter: Counter<'strategy' | 'reason'> | undefined;

  constructor(logger: Logger, counter: Counter<'strategy' | 'reason'> | undefined) {
    this.#logger = logger;
    this.#counter = counter;
  }

  /** Logs and counts `refusal`, and gives the 401 to throw. */
  refuse(refusal: AuthRefusal): HttpError {
    const { strategy, reason, route } = refusal;
    // A request with no credentials at all is the everyday anonymous visitor, not an event.
    const level = reason === 'missing' ? 'debug' : 'info';
    this.#logger[level]({ strategy, reason, route }, `authentication failed: ${reason}`);
    this.#counter?.inc({ strategy, reason });
    return AuthErrors.unauthenticated(refusal.challenge);
  }
}
