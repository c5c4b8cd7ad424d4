import type { PostgresProxy } from '../../../test/factories/postgres-proxy';
import type { LoadResult } from '../load/load-request';
import { runLoad } from '../load/run-load';
import type { ServerProcess } from '../processes/server-process';
import type { BenchSettings } from '../settings';
import { ROUTES, type BenchRoute } from './routes';

/** One server loaded on one route for one round. */
export interface RoundSample {
  server: string;
  route: string;
  load: LoadResult;
  rssBytes: number;
  /** `SELECT 1` the database received per second during the round. */
  pingsPerSecond: number;
}

const isPing = (text: string): boolean => /^\s*select\s+1\s*;?\s*$/i.test(text);

async function loadRoute(
  server: ServerProcess,
  route: BenchRoute,
  seconds: number,
  settings: BenchSettings,
  loadCore: number | undefined,
): Promise<LoadResult> {
  const request = { url: server.baseUrl + route.path, method: route.method, body: route.body };
  return runLoad({ ...request, connections: settings.connections, durationSeconds: seconds }, loadCore);
}

/**
 * Warms every server on every route, then runs the rounds interleaved server by server, so that
 * drift in the machine (thermal, other tenants) spreads over all three alike.
 */
export async function measureThroughput(
  servers: ServerProcess[],
  proxy: PostgresProxy,
  settings: BenchSettings,
  loadCore: number | undefined,
  onSample: (sample: RoundSample) => void,
): Promise<RoundSample[]> {
  for (const server of servers)
    for (const route of ROUTES) await loadRoute(server, route, settings.warmupSeconds, settings, loadCore);

  const samples: RoundSample[] = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const route of ROUTES) {
      for (const server of servers) {
        proxy.queryTexts.splice(0);
        const load = await loadRoute(server, route, settings.roundSeconds, settings, loadCore);
        const pings = proxy.queryTexts.splice(0).filter(isPing).length;
        const sample = {
          server: server.kind.name,
          route: route.name,
          load,
          rssBytes: server.rssBytes(),
          pingsPerSecond: pings / load.durationSeconds,
        };
        samples.push(sample);
        onSample(sample);
      }
    }
  }
  return samples;
}
