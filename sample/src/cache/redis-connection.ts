import Redis from 'ioredis';
import type { OnApplicationShutdown } from 'keel';
import type { SampleConfig } from '../config/sample-config';

/**
 * The Redis the deployment gives the sample (`REDIS_URL`), checked by readiness and, with
 * `REALTIME_VIA=redis`, carrying the live list's events; closed at shutdown. It connects in the
 * background and keeps reconnecting, so a Redis that is down makes the replica not ready rather
 * than stopping it.
 */
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis;

  constructor(url: string) {
    this.client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    // Errors reach readiness through PING; the client's own event would otherwise crash the process.
    this.client.on('error', () => undefined);
  }

  onApplicationShutdown(): void {
    this.client.disconnect();
  }
}

/** The connection to `REDIS_URL`; none when the deployment gives no Redis. */
export function redisConnectionFor(config: Pick<SampleConfig, 'REDIS_URL'>): RedisConnection | undefined {
  const url = redisUrlOf(config);
  return url ? new RedisConnection(url) : undefined;
}

/** `REDIS_URL` when it is set: readiness then checks that Redis too. */
export function redisUrlOf(config: Pick<SampleConfig, 'REDIS_URL'>): string | undefined {
  return config.REDIS_URL?.trim() || undefined;
}
