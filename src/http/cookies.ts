import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse, serialize } from 'cookie';
import { sign, unsign } from 'cookie-signature';
import { HandlerErrors } from '../errors/handler-errors';
import { appendHeader } from './held-headers';
import { joinedRawHeader } from './raw-headers';

/** How `ctx.setCookie` writes a cookie; every option has the safe default. */
export interface CookieOptions {
  /** Signs the value with the first of the application's cookie keys. Default: `false`. */
  readonly signed?: boolean;
  /** How long the browser keeps it, in milliseconds (`Max-Age`). Default: until the browser closes. */
  readonly maxAgeMs?: number;
  /** When the browser drops it (`Expires`), where `maxAgeMs` is not given. */
  readonly expires?: Date;
  /** Default: `/`. */
  readonly path?: string;
  /** Default: the host that answered, and no other. */
  readonly domain?: string;
  /** Scripts cannot read it. Default: `true`. */
  readonly httpOnly?: boolean;
  /** Sent over HTTPS only. Default: `true` where `NODE_ENV` is `production`. */
  readonly secure?: boolean;
  /** Default: `'lax'`. `'none'` needs `secure`, as browsers require. */
  readonly sameSite?: 'lax' | 'strict' | 'none';
  /** CHIPS: kept per top-level site. Default: `false`. */
  readonly partitioned?: boolean;
}

/** How `ctx.cookie` reads a cookie. */
export interface CookieReadOptions {
  /** Verifies the signature with each of the application's cookie keys: a tampered or unsigned cookie reads as absent. */
  readonly signed?: boolean;
}

/** What the application's cookies are signed with and how they are written, decided at boot. */
export interface CookieSettings {
  /** The keys, newest first: the first signs, every one verifies. Undefined: none given. */
  readonly keys: readonly string[] | undefined;
  /** Whether a cookie is `Secure` unless its options say otherwise. */
  readonly isSecure: boolean;
}

// Express's format (`res.cookie(..., { signed: true })`, cookie-parser): either reads the other's.
const SIGNED = 's:';
const PARSED = Symbol('keel.cookies');
const NONE = Object.freeze(Object.create(null) as Record<string, string | undefined>);

type WithCookies = IncomingMessage & { [PARSED]?: Readonly<Record<string, string | undefined>> };

/**
 * The request's cookies by name, as its `Cookie` header gives them: parsed at the first read, once
 * per request. @example requestCookies(req).theme // 'dark'
 */
export function requestCookies(req: IncomingMessage): Readonly<Record<string, string | undefined>> {
  const target = req as WithCookies;
  const known = target[PARSED];
  if (known !== undefined) return known;
  const header = joinedRawHeader(req.rawHeaders, 'cookie');
  const cookies = header === undefined ? NONE : parse(header);
  target[PARSED] = cookies;
  return cookies;
}

/**
 * The cookie `name`, or undefined; read `signed`, its value once a key verifies its signature, and
 * undefined for a tampered or unsigned one. Without keys a signed read throws `E_NO_COOKIE_SECRET`.
 *
 * @example readCookie(req, 'session', { signed: true }, { settings, route })
 */
export function readCookie(
  req: IncomingMessage,
  name: string,
  { signed = false }: CookieReadOptions,
  { settings, route }: { settings: CookieSettings; route: string },
): string | undefined {
  const keys = signed ? keysOf(settings, route, name) : undefined;
  const value = requestCookies(req)[name];
  if (keys === undefined || value === undefined) return value;
  if (!value.startsWith(SIGNED)) return undefined;
  for (const key of keys) {
    const verified = unsign(value.slice(SIGNED.length), key);
    if (verified !== false) return verified;
  }
  return undefined;
}

/**
 * Adds a `Set-Cookie` for `name` to the answer, with keel's defaults (`HttpOnly`, `SameSite=Lax`,
 * `Path=/`, `Secure` in production); `signed` signs it with the first key. A name, value or option
 * that is not a cookie's throws `E_INVALID_COOKIE`.
 *
 * @example writeCookie(res, 'theme', 'dark', { maxAgeMs: 86_400_000 }, { settings, route })
 */
export function writeCookie(
  res: ServerResponse,
  cookie: { readonly name: string; readonly value: string; readonly options: CookieOptions },
  { settings, route }: { settings: CookieSettings; route: string },
): void {
  const { name, value, options } = cookie;
  const { signed = false, maxAgeMs, sameSite = 'lax', path = '/', httpOnly = true } = options;
  const [key] = signed ? keysOf(settings, route, name) : [];
  let line: string;
  try {
    line = serialize(name, key === undefined ? value : `${SIGNED}${sign(value, key)}`, {
      path,
      httpOnly,
      sameSite,
      secure: options.secure ?? settings.isSecure,
      ...(options.domain === undefined ? {} : { domain: options.domain }),
      ...(maxAgeMs === undefined ? {} : { maxAge: Math.floor(maxAgeMs / 1000) }),
      ...(options.expires === undefined ? {} : { expires: options.expires }),
      ...(options.partitioned ? { partitioned: true } : {}),
    });
  } catch (error) {
    // `cookie` refuses what a browser would misread (a name with a `;`), with a TypeError.
    throw HandlerErrors.invalidCookie(route, name, (error as Error).message);
  }
  appendHeader(res, 'Set-Cookie', line);
}

function keysOf(settings: CookieSettings, route: string, name: string): readonly string[] {
  if (settings.keys === undefined) throw HandlerErrors.noCookieSecret(route, name);
  return settings.keys;
}
