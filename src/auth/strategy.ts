import type { Request } from 'express';
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

/** The bearer token of `Authorization`, if the request carries one. @internal @example bearerToken(req) */
export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +([^ ]+) *$/i.exec(header);
  return match?.[1];
}
