import { createHash, randomBytes } from 'node:crypto';

/**
 * The SHA-256 of a secret keel hands out (an API token, a session id), as its tables keep it: 256
 * random bits need no slow hash, and the lookup by equality leaks nothing a caller can steer.
 *
 * @example
 * await dataSource.query('SELECT ... WHERE token_hash = $1', [digestOf(token)]);
 */
export function digestOf(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** 32 random bytes, base64url: a secret to hand out once. @example const sid = randomSecret() */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}
