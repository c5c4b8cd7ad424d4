import type http from 'node:http';
import type { ShutdownSettings } from './options';

/**
 * The server's timeouts from the application's settings. Node checks its timeouts every 30 s by
 * default: a 10 s headers timeout would let a slow client hold its connection for up to 40 s.
 * Checked a few times per timeout instead, at most every second.
 *
 * @example
 * http.createServer({ ...serverTimeouts(settings) });
 */
export function serverTimeouts(settings: ShutdownSettings): http.ServerOptions {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = settings;
  const shortest = Math.min(...[headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0), 4000);
  return {
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.floor(shortest / 4)),
  };
}
