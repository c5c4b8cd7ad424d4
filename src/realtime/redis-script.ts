import { createHash } from 'node:crypto';
import { messageOf } from '../errors/describe-value';
import type { RedisConnection } from './redis-connection';

/**
 * A Lua script run by its SHA-1 (`EVALSHA`), sent whole (`EVAL`) only when the server does not
 * know it yet: after its start, or a `SCRIPT FLUSH`.
 *
 * @example
 * const double = new RedisScript("return tonumber(ARGV[1]) * 2");
 * await double.run(client, [], ['21']); // 42
 */
export class RedisScript {
  readonly #source: string;
  readonly #sha: string;

  constructor(source: string) {
    this.#source = source;
    this.#sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script with `keys` (KEYS) and `args` (ARGV); resolves with what it returns. */
  async run(client: RedisConnection, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    try {
      return await client.evalsha(this.#sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!messageOf(error).startsWith('NOSCRIPT')) throw error;
      return client.eval(this.#source, keys.length, ...keys, ...args);
    }
  }
}
