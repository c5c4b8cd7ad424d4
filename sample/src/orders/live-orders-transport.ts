import type { RealtimeModuleOptions } from 'keel';
import type { RedisConnection } from '../cache/redis-connection';
import type { SampleConfig } from '../config/sample-config';

/**
 * How the live list's events reach every replica (`RealtimeModule.forRoot`'s options): through the
 * database, or with `REALTIME_VIA=redis` through the sample's connection to `REDIS_URL`, under
 * `REALTIME_KEY_PREFIX` when it is set.
 *
 * @example
 * RealtimeModule.forRoot({ inject: [SampleConfig, RedisConnection], useFactory: liveOrdersTransport })
 */
export function liveOrdersTransport(
  config: Pick<SampleConfig, 'REALTIME_VIA' | 'REALTIME_KEY_PREFIX'>,
  connection: RedisConnection | undefined,
): RealtimeModuleOptions {
  if (config.REALTIME_VIA !== 'redis') return {};
  // The settings require REDIS_URL with REALTIME_VIA=redis; a configuration given as it is (an
  // in-process test's) skips them, and must not fall back to the database unnoticed.
  if (!connection) throw new Error('REALTIME_VIA is redis, and REDIS_URL is not set');
  return {
    via: 'redis',
    redis: () => connection.client,
    keyPrefix: config.REALTIME_KEY_PREFIX?.trim() || undefined,
  };
}
