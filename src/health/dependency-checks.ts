import { messageOf } from '../errors/describe-value';

/** What {@link redisCheck} needs of a client: ioredis and node-redis both have it. */
export interface PingableClient {
  ping(): Promise<unknown>;
}

/**
 * A readiness check that sends `PING` through the client `getClient` gives (resolved at each
 * check, so it may be created after boot) and wants `PONG`.
 *
 * @example
 * HealthModule.forRoot({ checks: { redis: redisCheck(() => redis) } });
 */
export function redisCheck(
  getClient: () => PingableClient | null | undefined | Promise<PingableClient | null | undefined>,
): () => Promise<void> {
  return async () => {
    const client = await getClient();
    if (!client) throw new Error('no Redis client');
    const answer = await client.ping();
    if (answer !== 'PONG') throw new Error(`PING answered ${String(answer)}`);
  };
}

/** Options of {@link httpCheck}. */
export interface HttpCheckOptions {
  /** How long the request may take. Default: the health `timeoutMs`. */
  readonly timeoutMs?: number;
}

/**
 * A readiness check that sends `GET url` and wants a 2xx answer; redirects are not followed.
 *
 * @example
 * HealthModule.forRoot({ checks: { billing: httpCheck('http://billing:8080/health/ready', { timeoutMs: 300 }) } });
 */
export function httpCheck(url: string, options: HttpCheckOptions = {}) {
  const target = new URL(url);
  return {
    timeoutMs: options.timeoutMs,
    check: async (signal: AbortSignal): Promise<void> => {
      const answer = await fetch(target, { signal, redirect: 'manual' }).catch((error: unknown) => {
        // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, a reset).
        throw new Error(`GET ${target.href}: ${messageOf((error as { cause?: unknown }).cause ?? error)}`);
      });
      await answer.body?.cancel();
      if (answer.status < 200 || answer.status > 299)
        throw new Error(`GET ${target.href} answered ${answer.status}`);
    },
  };
}
