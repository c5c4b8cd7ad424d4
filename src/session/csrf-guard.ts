import type { CanActivate } from '../hooks/hook-types';
import type { Context } from '../http/context';
import type { CsrfTokens } from './csrf-tokens';
import { SessionErrors } from '../errors/session-errors';
import { MetadataKey } from '../metadata/keys';

// Methods that change nothing need no token: a cross-site page can send them, but learns nothing.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The CSRF rule of a session application, as a global guard: every POST, PUT, PATCH and DELETE
 * carries the session's token, except on `@ApiResource` controllers and `@SkipCsrf()` routes; a
 * missing or wrong token is 403 `{"error":"invalid CSRF token"}` and the handler never runs.
 *
 * @example
 * { provide: APP_GUARD, useValue: new CsrfGuard(tokens) }
 */
export class CsrfGuard implements CanActivate {
  readonly #tokens: CsrfTokens;

  constructor(tokens: CsrfTokens) {
    this.#tokens = tokens;
  }

  canActivate(ctx: Context): boolean {
    if (SAFE_METHODS.has(ctx.req.method) || ctx.metadata(MetadataKey.skipCsrf) === true) return true;
    if (!this.#tokens.isValid(ctx.req)) throw SessionErrors.invalidCsrfToken();
    return true;
  }
}
