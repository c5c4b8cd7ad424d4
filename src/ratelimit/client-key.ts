import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { Context } from '../http/context';
import { describeValue } from '../errors/describe-value';
import type { RateLimitKey } from './rate-limit-options';

/** A route's key, from its context and the request under it (read without loading Express). */
export type KeyOf = (ctx: Context, req: Request) => string;

// The PostgreSQL store keeps keys in a varchar(255), its prefix included: a longer key from a key
// function (a token, say) is kept as its digest instead.
const LONGEST_KEY = 160;

/**
 * How a route finds the key whose budget a request spends: for `'ip'`, the client's address as
 * Express's `req.ip` gives it (honouring `trust proxy`), which is the socket's peer while Express
 * has not loaded (no setting can have been made then); for a function, its string.
 *
 * @example
 * const keyOf = clientKey('ip', 'OrderController.store');
 */
export function clientKey(key: RateLimitKey, route: string): KeyOf {
  if (key === 'ip') return (_ctx, req) => req.ip ?? req.socket.remoteAddress ?? 'unknown';
  return (ctx) => {
    const given: unknown = key(ctx);
    if (typeof given !== 'string' || given === '') {
      throw new TypeError(
        `the rate limit key of ${route} gave ${describeValue(given)}, not a non-empty string`,
      );
    }
    return given.length <= LONGEST_KEY ? given : createHash('sha256').update(given).digest('base64url');
  };
}
