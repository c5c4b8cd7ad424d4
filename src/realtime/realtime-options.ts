import { RealtimeErrors } from '../errors/realtime-errors';

/** Options of {@link RealtimeModule.forRoot}. */
export interface RealtimeModuleOptions {
  /**
   * How events reach the other replicas: `'postgres'` (the default), the application's PostgreSQL
   * (`LISTEN`/`NOTIFY`); or `'redis'`, its Redis (pub/sub), through the client `redis` gives.
   */
  readonly via?: 'postgres' | 'redis';
  /** With `via: 'redis'`: the application's ioredis client, read once at boot; keel subscribes on a duplicate of it. */
  readonly redis?: () => object;
  /** With `via: 'redis'`: what every key and the pub/sub channel start with. Default `'keel:realtime:'`. */
  readonly keyPrefix?: string;
  /** How long events are kept for clients that reconnect with `Last-Event-ID`. Default: 2 minutes. */
  readonly replayWindowMs?: number;
}

/** `RealtimeModuleOptions` checked, defaults applied. @internal */
export type RealtimeSettings =
  | { readonly via: 'postgres'; readonly replayWindowMs: number }
  | {
      readonly via: 'redis';
      readonly replayWindowMs: number;
      readonly keyPrefix: string;
      readonly redis: () => object;
    };

/**
 * The options as `RealtimeModule.forRoot` was given them (or its factory made them), checked before
 * anything is served: a wrong transport, window or prefix is a boot error naming the option.
 *
 * @example
 * checkRealtimeOptions({ via: 'redis', redis: () => client }); // { via: 'redis', keyPrefix: 'keel:realtime:', ... }
 * @internal
 */
export function checkRealtimeOptions(options: RealtimeModuleOptions): RealtimeSettings {
  const replayWindowMs = options.replayWindowMs ?? 120_000;
  if (!Number.isSafeInteger(replayWindowMs) || replayWindowMs <= 0)
    throw RealtimeErrors.invalidRealtimeOption(
      'replayWindowMs',
      replayWindowMs,
      'a whole number of milliseconds above 0',
    );
  const via: unknown = options.via ?? 'postgres';
  if (via === 'postgres') {
    const stray = (['redis', 'keyPrefix'] as const).filter((option) => options[option] !== undefined);
    if (stray.length > 0)
      throw RealtimeErrors.invalidRealtimeTransport(`${stray.join(' and ')} given, and via is 'postgres'`);
    return { via, replayWindowMs };
  }
  if (via !== 'redis')
    throw RealtimeErrors.invalidRealtimeTransport(
      `via is ${JSON.stringify(via) ?? String(via)}: expected 'postgres' or 'redis'`,
    );
  const { redis, keyPrefix = 'keel:realtime:' } = options;
  if (typeof redis !== 'function')
    throw RealtimeErrors.broadcastNeedsRedis(`its redis option is ${typeof redis}, not a function`);
  if (typeof keyPrefix !== 'string' || keyPrefix === '')
    throw RealtimeErrors.invalidRealtimeOption('keyPrefix', keyPrefix, 'a non-empty string');
  return { via, replayWindowMs, keyPrefix, redis };
}
