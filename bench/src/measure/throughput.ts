import type { PostgresProxy } from '../../../test/factories/postgres-proxy';
import type { LoadGenerator, LoadResult } from '../load/load-request';
import { runLoad } from '../load/run-load';
import type { ServerProcess } from '../processes/server-process';
import type { BenchSettings } from '../settings';
import type { BenchRoute } from './routes';

/** One server loaded on one route by one generator for one round. */
export interface RoundSample {
  server: string;
  route: string;
  generator: LoadGenerator;
  load: LoadResult;
  rssBytes: number;
  /** `SELECT 1` the database received per second during the round. */
  pingsPerSecond: number;
}

const isPing = (text: string): boolean => /^\s*select\s+1\s*;?\s*$/i.test(text);

/** Loads `route` of `server` for `seconds` with `generator`, from `loadCore`. */
export function loadRoute(
  server: ServerProcess,
  route: BenchRoute,
  generator: LoadGenerator,
  seconds: number,
  settings: BenchSettings,
  loadCore: number | undefined,
): Promise<LoadResult> {
  return runLoad(
    {
      generator,
      url: server.baseUrl + route.path,
      method: route.method,
      body: route.body,
      headers: route.headers,
      expectedStatus: route.status,
      connections: settings.connections,
      durationSeconds: seconds,
    },
    loadCore,
  );
}

/**
 * Warms every server on every one of `routes`, then runs the rounds interleaved server by server, so
 * that drift in the machine (thermal, other tenants) spreads over all of them alike.
 */
export async function measureThroughput(
  servers: ServerProcess[],
  routes: readonly BenchRoute[],
  proxy: PostgresProxy,
  settings: BenchSettings,
  loadCore: number | undefined,
  onSample: (sample: RoundSample) => void,
): Promise<RoundSample[]> {
  const warmUp = settings.generators[0] ?? 'autocannon';
  for (const server of servers)
    for (const route of routes)
      await loadRoute(server, route, warmUp, settings.warmupSeconds, settings, loadCore);

  const samples: RoundSample[] = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const route of routes) {
      for (const generator of settings.generators) {
        for (const server of servers) {
          proxy.queryTexts.splice(0);
          const load = await loadRoute(server, route, generator, settings.roundSeconds, settings, loadCore);
          const pings = proxy.queryTexts.splice(0).filter(isPing).length;
          const sample = {
            server: server.kind.name,
            route: route.name,
            generator,
            load,
            rssBytes: server.rssBytes(),
            pingsPerSecond: pings / load.durationSeconds,
          };
          samples.push(sample);
          onSample(sample);
        }
      }
    }
  }
  return samples;
}
