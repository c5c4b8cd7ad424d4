import { SetMetadata, type ClassOrMethodDecorator } from '../decorators/hooks';
import { MetadataKey } from '../metadata/keys';
import type { RateLimitOptions, RateLimitRecord } from './rate-limit-options';

/**
 * Limits the routes of a class (which share one budget), or one method (its own budget; it wins
 * over the class's), to `limit` requests per `windowS` seconds per key, the client's address unless
 * `key` says otherwise. Past it, 429 `{"error":"too many requests"}` with `Retry-After`. Needs
 * `RateLimitModule`; the options are checked at boot.
 *
 * @example
 * @RateLimit({ limit: 5, windowS: 60 }) @Post('login') login() {}
 */
export function RateLimit(options: RateLimitOptions): ClassOrMethodDecorator {
  return (target, property, descriptor) => {
    const owner = typeof target === 'function' ? target.name : target.constructor.name;
    const budget = property === undefined ? owner : `${owner}.${String(property)}`;
    const record: RateLimitRecord = { ...options, budget };
    SetMetadata(MetadataKey.rateLimit, record)(target, property, descriptor);
  };
}
