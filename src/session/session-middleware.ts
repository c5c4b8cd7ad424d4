import type { Request, RequestHandler, Response } from 'express';
import type CookieSession from 'cookie-session';
import type { CsrfTokens } from './csrf-tokens';

/** How sessions are kept: in a signed cookie, so every replica with the same keys reads them. */
export interface SessionCookieSettings {
  /** The signing keys: the first signs, every one verifies (rotate by putting the new one first). */
  readonly keys: readonly string[];
  readonly cookieName: string;
  /** How long the cookie lives; undefined: until the browser closes. */
  readonly maxAgeMs: number | undefined;
  readonly csrf: CsrfTokens;
}

/**
 * The session middleware: the session read from its signed cookie (`HttpOnly`, `SameSite=Lax`,
 * `Secure` on HTTPS, as Express's `req.secure` says behind a trusted proxy), the last request's
 * flash messages handed to this request's templates and dropped from the session, and the CSRF
 * helpers `csrfToken` and `csrfField()` in `res.locals`.
 *
 * @example
 * app.use(createSessionMiddleware({ keys: [secret], cookieName: 'keel.session', maxAgeMs: undefined, csrf }));
 */
export function createSessionMiddleware(settings: SessionCookieSettings): RequestHandler {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with sessions only
  const cookieSession = require('cookie-session') as typeof CookieSession;
  const readCookie = cookieSession({
    name: settings.cookieName,
    keys: [...settings.keys],
    httpOnly: true,
    sameSite: 'lax',
    maxAge: settings.maxAgeMs,
  });
  return (req, res, next) => {
    readCookie(req, res, (error?: unknown) => {
      if (error) return next(error);
      exposeToTemplates(req, res, settings.csrf);
      next();
    });
  };
}

function exposeToTemplates(req: Request, res: Response, csrf: CsrfTokens): void {
  const session = req.session as Record<string, unknown>;
  const flash = session.flash;
  // A flash message lives for one request: the one after the request that left it.
  if (flash !== undefined) delete session.flash;
  const locals = res.locals as Record<string, unknown>;
  locals.flash = flash ?? {};
  // The token is made when a page is rendered, not before: JSON answers and redirects set no cookie for it.
  Object.defineProperty(locals, 'csrfToken', { enumerable: true, get: () => csrf.tokenFor(req) });
  locals.csrfField = () => `<input type="hidden" name="_csrf" value="${csrf.tokenFor(req)}">`;
}
