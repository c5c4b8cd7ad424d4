import { describeValue } from '../errors/describe-value';
import { RealtimeErrors } from '../errors/realtime-errors';

/**
 * What the Redis transport uses of an ioredis client (`Redis`): commands on the application's
 * client, and pub/sub on a duplicate of it. node-redis names these differently (`evalSha`, a
 * listener per `subscribe`), and is refused at boot.
 */
export interface RedisConnection {
  /** `'ready'` once connected and usable. */
  readonly status: string;
  readonly options: { readonly connectionName?: string };
  /** A new connection with the same options, `override` applied. */
  duplicate(override: Readonly<Record<string, unknown>>): RedisConnection;
  evalsha(sha: string, numberOfKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(script: string, numberOfKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  get(key: string): Promise<string | null>;
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'ready' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  disconnect(): void;
}

const METHODS = ['duplicate', 'evalsha', 'eval', 'get', 'subscribe', 'on', 'disconnect'] as const;

/**
 * The client `redis` gives, once it is known to be an ioredis client; a boot error naming what it
 * gave otherwise.
 *
 * @example
 * const client = redisConnectionOf(() => new Redis(process.env.REDIS_URL));
 */
export function redisConnectionOf(redis: () => object): RedisConnection {
  const client: unknown = redis();
  if (typeof client !== 'object' || client === null)
    throw RealtimeErrors.broadcastNeedsRedis(`redis() gave ${describeValue(client)}, not a Redis client`);
  const missing = METHODS.filter(
    (method) => typeof (client as Record<string, unknown>)[method] !== 'function',
  );
  if (missing.length > 0)
    throw RealtimeErrors.broadcastNeedsRedis(
      `redis() gave a client without ${missing.join(', ')}: keel speaks to Redis through ioredis (node-redis is not supported)`,
    );
  return client as RedisConnection;
}
