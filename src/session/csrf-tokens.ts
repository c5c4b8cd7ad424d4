import type { Request } from 'express';
import type * as CsrfSync from 'csrf-sync';

/**
 * The session's CSRF token (the synchroniser-token pattern, through csrf-sync): made once per
 * session and kept in it, sent back by forms in the `_csrf` field or by scripts in the
 * `X-CSRF-Token` header.
 *
 * @example
 * const tokens = createCsrfTokens();
 * tokens.tokenFor(req); // the value for the hidden field
 * tokens.isValid(req); // does the request carry it?
 */
export interface CsrfTokens {
  tokenFor(req: Request): string;
  isValid(req: Request): boolean;
}

// 32 random bytes, 64 hex characters: as strong as a session secret, small enough for a cookie.
const TOKEN_BYTES = 32;

/** Makes the token store sessions use. @example const tokens = createCsrfTokens() */
export function createCsrfTokens(): CsrfTokens {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with sessions only
  const { csrfSync } = require('csrf-sync') as typeof CsrfSync;
  const csrf = csrfSync({
    size: TOKEN_BYTES,
    getTokenFromRequest: (req) => {
      const field: unknown = (req.body as Record<string, unknown> | undefined)?._csrf;
      if (typeof field === 'string') return field;
      const header = req.headers['x-csrf-token'];
      return typeof header === 'string' ? header : undefined;
    },
    getTokenFromState: (req) => {
      const stored: unknown = (req as { session?: Record<string, unknown> }).session?.csrfToken;
      return typeof stored === 'string' ? stored : undefined;
    },
    storeTokenInState: (req, token) => {
      const { session } = req as { session?: Record<string, unknown> };
      if (session) session.csrfToken = token;
    },
  });
  return {
    tokenFor: (req) => csrf.generateToken(req),
    isValid: (req) => csrf.isRequestValid(req),
  };
}
