import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';
import { rawHeader } from '../http/raw-headers';
import type { DataSource } from 'typeorm';
import type { SecurityScheme } from '../openapi/authenticates';

/**
 * What a strategy learnt of the caller, handed to `AuthModule`'s `user` factory: `sub` names the
 * user (a JWT's subject, the user id a session or an API token was issued to); a JWT's other claims
 * come along.
 */
export interface AuthClaims {
  readonly sub: string;
  readonly [claim: string]: unknown;
}

/**
 * A strategy's verdict on one request: `undefined` when the request carries nothing it reads (the
 * next strategy is asked), the claims when its credentials hold, or why they do not (logged and
 * counted, never sent).
 */
export type Recognition =
  | undefined
  | { readonly claims: AuthClaims; readonly abilities?: readonly string[] }
  | { readonly failure: string };

/** What a strategy is given once at boot. @internal */
export interface StrategyServices {
  /** The application's `DataSource`; a boot error naming the strategy when there is none. */
  readonly dataSource: () => DataSource;
}

/**
 * One way of authenticating requests, as `AuthModule.forRoot({ strategies })` names it: made by
 * `jwt()`, `session()` or `apiTokens()`.
 *
 * @example
 * AuthModule.forRoot({ default: 'jwt', strategies: { jwt: jwt({ secret }) }, user })
 */
export interface AuthStrategy {
  /** How the OpenAPI document states it. */
  readonly scheme: SecurityScheme;
  /** The challenge of a 401's `WWW-Authenticate`: `Bearer`. */
  readonly challenge: string;
  /** @internal keel starts each strategy once, at boot. */
  start(services: StrategyServices): void;
  /** @internal asked for each request of the routes the strategy opens. */
  recognise(req: Request): Recognition | Promise<Recognition>;
}

/**
 * The bearer token of `Authorization` (`Bearer` in any case, one or more spaces, the token, no space
 * in it), if the request carries one: read from the raw headers, as a plain request builds no
 * `req.headers`, and without a case-insensitive expression, which cost as much as the rest of a
 * token's check. @internal @example bearerToken(req)
 */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = rawHeader(req.rawHeaders, 'authorization');
  if (header === undefined || header.length <= SCHEME.length + 1) return undefined;
  for (let index = 0; index < SCHEME.length; index += 1) {
    // `| 0x20` lowers an ASCII letter's case; the scheme has letters only.
    if ((header.charCodeAt(index) | 0x20) !== SCHEME.charCodeAt(index)) return undefined;
  }
  let start = SCHEME.length;
  if (header.charCodeAt(start) !== SPACE) return undefined;
  while (header.charCodeAt(start) === SPACE) start += 1;
  let end = header.length;
  while (end > start && header.charCodeAt(end - 1) === SPACE) end -= 1;
  if (end === start) return undefined;
  const space = header.indexOf(' ', start);
  return space !== -1 && space < end ? undefined : header.slice(start, end);
}

const SCHEME = 'bearer';
const SPACE = 0x20;
