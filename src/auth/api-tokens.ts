import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AuthErrors } from '../errors/auth-errors';
import { digestOf, randomSecret } from './secret-digest';
import { bearerToken, type AuthStrategy, type Recognition, type StrategyServices } from './strategy';

/** Options of {@link apiTokens}. */
export interface ApiTokensOptions {
  /** What every token starts with, so that it is told from a JWT and found by secret scanners. Default: `keel_`. */
  readonly prefix?: string;
}

/** What `auth.tokens.issue` records of a new token. */
export interface IssueTokenOptions {
  /** What the user calls it (`'CI deploys'`). */
  readonly name: string;
  /** What it may do, as `auth.tokenCan(ctx, ability)` reads them; `'*'` is everything. Default: `['*']`. */
  readonly abilities?: readonly string[];
  /** When it stops working; default: never. */
  readonly expiresAt?: Date;
}

/** A token just issued: its id (to revoke it) and the token itself, which is shown this once and kept only as a hash. */
export interface IssuedToken {
  readonly id: string;
  readonly token: string;
}

/** The `apiTokens()` strategy, which issues and revokes the tokens it reads. */
export interface ApiTokensStrategy extends AuthStrategy {
  /** @internal what `auth.tokens.issue` does */
  issue(userId: string, options: IssueTokenOptions): Promise<IssuedToken>;
  /** @internal what `auth.tokens.revoke` does */
  revoke(id: string): Promise<boolean>;
}

interface TokenRow {
  readonly id: string;
  readonly user_id: string;
  readonly abilities: string[];
  readonly is_revoked: boolean;
  readonly is_expired: boolean;
  readonly is_stale: boolean;
}

// `last_used_at` is written at most once a minute per token: one write per request would be a
// row lock and a WAL record per API call.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOUCH_EVERY = "interval '60 seconds'";

/**
 * Authenticates `Authorization: Bearer <prefix><secret>` against the table `keel_api_tokens` of the
 * application's database (created by the migration `AuthTables`), which keeps only each token's
 * SHA-256: every request reads it, so a token revoked on one replica is refused by every replica
 * at its next request; `last_used_at` says when it was last used (to the minute).
 *
 * @example
 * AuthModule.forRoot({ default: 'token', strategies: { token: apiTokens() }, user })
 */
export function apiTokens(options: ApiTokensOptions = {}): ApiTokensStrategy {
  const prefix = options.prefix ?? 'keel_';
  if (typeof prefix !== 'string' || !/^[A-Za-z0-9_-]+$/.test(prefix))
    throw AuthErrors.invalidStrategy('apiTokens', 'the prefix must be letters, digits, _ or -');
  let database: (() => DataSource) | undefined;
  const dataSource = (): DataSource => {
    if (!database) throw AuthErrors.invalidStrategy('apiTokens', 'it was not started by AuthModule');
    return database();
  };

  return {
    scheme: { type: 'http', scheme: 'bearer', description: `An API token (${prefix}...)` },
    challenge: 'Bearer',
    start(services: StrategyServices) {
      database = services.dataSource;
    },
    async recognise(req: Request): Promise<Recognition> {
      const token = bearerToken(req);
      if (token === undefined || !token.startsWith(prefix)) return undefined;
      const rows = (await dataSource().query(
        `SELECT id, user_id, abilities, revoked_at IS NOT NULL AS is_revoked,
           (expires_at IS NOT NULL AND expires_at <= now()) AS is_expired,
           (last_used_at IS NULL OR last_used_at < now() - ${TOUCH_EVERY}) AS is_stale
         FROM keel_api_tokens WHERE token_hash = $1`,
        [digestOf(token)],
      )) as TokenRow[];
      const row = rows[0];
      if (!row) return { failure: 'unknown_token' };
      if (row.is_revoked) return { failure: 'revoked' };
      if (row.is_expired) return { failure: 'expired' };
      if (row.is_stale)
        await dataSource().query('UPDATE keel_api_tokens SET last_used_at = now() WHERE id = $1', [row.id]);
      return { claims: { sub: row.user_id, tokenId: row.id }, abilities: row.abilities };
    },
    async issue(userId, { name, abilities = ['*'], expiresAt }) {
      if (typeof name !== 'string' || name === '') throw AuthErrors.invalidTokenOptions('a name');
      if (!Array.isArray(abilities) || abilities.some((ability) => typeof ability !== 'string'))
        throw AuthErrors.invalidTokenOptions('abilities as an array of strings');
      if (expiresAt !== undefined && !(expiresAt instanceof Date && Number.isFinite(expiresAt.getTime())))
        throw AuthErrors.invalidTokenOptions('expiresAt as a valid Date');
      const id = randomUUID();
      const token = `${prefix}${randomSecret()}`;
      await dataSource().query(
        'INSERT INTO keel_api_tokens (id, user_id, name, token_hash, abilities, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [id, userId, name, digestOf(token), JSON.stringify(abilities), expiresAt ?? null],
      );
      return { id, token };
    },
    async revoke(id) {
      if (typeof id !== 'string' || !UUID.test(id)) return false;
      const [, count] = (await dataSource().query(
        'UPDATE keel_api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL',
        [id],
      )) as [unknown, number];
      return count > 0;
    },
  };
}
