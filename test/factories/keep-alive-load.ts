import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** Requests a keep-alive load sent, and each one that failed, with why. */
export interface KeepAliveLoad {
  readonly sent: number;
  /** `<status>` or the socket error's code, with the instant (`performance.now()`), per failure. */
  readonly failures: readonly { readonly reason: string; readonly at: number }[];
  /** Distinct sockets the agent opened: a keep-alive load reuses them. */
  readonly sockets: number;
  /** Stops; resolves once every request in flight has its answer. */
  stop(): Promise<void>;
}

/**
 * GETs `url` from `concurrency` loops sharing one keep-alive `http.Agent` with that many sockets,
 * `perSecond` requests a second in all, as a service's clients do through a balancer; any answer but
 * a 200, and any socket error, is a failure. Requests are never retried: a failure counts.
 *
 * @example
 * const load = startKeepAliveLoad(`${balancer.url}/health`, { perSecond: 200, concurrency: 4 });
 */
export function startKeepAliveLoad(
  url: string,
  { perSecond, concurrency }: { readonly perSecond: number; readonly concurrency: number },
): KeepAliveLoad {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const failures: { reason: string; at: number }[] = [];
  const sockets = new Set<unknown>();
  let sent = 0;
  let isRunning = true;
  const tickMs = (1000 * concurrency) / perSecond;
  const loop = async (): Promise<void> => {
    const startedAt = performance.now();
    for (let n = 1; isRunning; n++) {
      sent += 1;
      const reason = await getOnce(url, agent, sockets);
      if (reason !== undefined) failures.push({ reason, at: performance.now() });
      // The load's rate, not a wait for something to happen.
      const waitMs = startedAt + n * tickMs - performance.now();
      if (waitMs > 0) await sleep(waitMs);
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    get sent() {
      return sent;
    },
    failures,
    get sockets() {
      return sockets.size;
    },
    async stop() {
      isRunning = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

// Undefined for a 200 read to its end; else why it failed.
function getOnce(url: string, agent: http.Agent, sockets: Set<unknown>): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? undefined : String(res.statusCode)));
      res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    req.on('socket', (socket) => sockets.add(socket));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}
