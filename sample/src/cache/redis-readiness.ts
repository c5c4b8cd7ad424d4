import { Injectable, redisCheck, type CheckProvider } from 'keel';
import { RedisConnection } from './redis-connection';

/** Readiness's `"redis"`: a `PING` through the sample's connection, which answers `PONG` when up. */
@Injectable()
export class RedisReadiness implements CheckProvider {
  readonly #ping: () => Promise<void>;

  constructor(connection: RedisConnection) {
    this.#ping = redisCheck(() => connection?.client);
  }

  check(): Promise<void> {
    return this.#ping();
  }
}
