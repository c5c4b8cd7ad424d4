import { SetMetadata, type ClassOrMethodDecorator } from '../decorators/hooks';
import { MetadataKey } from '../metadata/keys';
import type { RateLimitOptions, RateLimitRecord } from './rate-limit-options';

/**
 * Limits the routes of a class (which share one budget), or one method (its own budget; it wins
 * over the class's), to `limit` requests per `windowS` seconds per key, the client's address unless
 * `key` says otherwise; or to the limit `RateLimitModule.forRoot({ limits })` gives that name, one
 * budget for every route that names it. Past
 * it, 429 `{"error":"too many requests"}` with `Retry-After`. Needs `RateLimitModule`; the options
 * are checked at boot.
 *
 * @example
 * @RateLimit({ limit: 5, windowS: 60 }) @Post('login') login() {}
 * @RateLimit('api-writes') @Post() store() {}
 */
export function RateLimit(limit: RateLimitOptions | string): ClassOrMethodDecorator {
  return (target, property, descriptor) => {
    const owner = typeof target === 'function' ? target.name : target.constructor.name;
    const budget = property === undefined ? owner : `${owner}.${String(property)}`;
    const record: RateLimitRecord = { limit, budget };
    SetMetadata(MetadataKey.rateLimit, record)(target, property, descriptor);
  };
}
