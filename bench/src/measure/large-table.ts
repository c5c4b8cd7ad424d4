import type { LoadGenerator } from '../load/load-request';
import { ServerProcess, type ServerLaunch } from '../processes/server-process';
import type { BenchSettings } from '../settings';
import { median } from '../report/statistics';
import { loadRoute } from './throughput';

/** keel with `routeCount` routes: boot time and the throughput of its last route. */
export interface LargeTableFigures {
  routeCount: number;
  /** Spawn to the first 200 on `/health`, median over the rounds. */
  bootMs: number;
  requestsPerSecond: Partial<Record<LoadGenerator, number>>;
}

const SMALL_TABLE = 10;

/**
 * Boots keel with a small and a large route table (`BENCH_LARGE_ROUTES`, 10,000 by default) in
 * turn, and loads the route declared last in each: what a large table costs at boot and per request.
 */
export async function measureLargeTable(
  launch: ServerLaunch,
  settings: BenchSettings,
  loadCore: number | undefined,
): Promise<LargeTableFigures[]> {
  const counts = [SMALL_TABLE, settings.largeRouteCount];
  const boots = new Map<number, number[]>();
  const throughputs = new Map<string, number[]>();
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const routeCount of counts) {
      const kind = {
        name: `keel-${routeCount}`,
        script: 'keel-routes-server.js',
        env: { ROUTE_COUNT: String(routeCount) },
      };
      const server = await ServerProcess.start(kind, launch);
      try {
        boots.set(routeCount, [...(boots.get(routeCount) ?? []), server.startupMs]);
        const route = {
          name: 'last route',
          method: 'GET' as const,
          path: `/r${routeCount - 1}/orders/42`,
          status: 200,
        };
        for (const generator of settings.generators) {
          const load = await loadRoute(server, route, generator, settings.roundSeconds, settings, loadCore);
          const key = `${routeCount} ${generator}`;
          throughputs.set(key, [...(throughputs.get(key) ?? []), load.requestsPerSecond]);
        }
      } finally {
        await server.stop();
      }
    }
  }
  return counts.map((routeCount) => ({
    routeCount,
    bootMs: median(boots.get(routeCount) ?? []),
    requestsPerSecond: Object.fromEntries(
      settings.generators.map((generator) => [
        generator,
        median(throughputs.get(`${routeCount} ${generator}`) ?? []),
      ]),
    ),
  }));
}
