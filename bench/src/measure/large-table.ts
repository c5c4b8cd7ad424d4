import type { ServerLaunch } from '../processes/server-process';
import type { BenchSettings } from '../settings';
import { measureVariants, type VariantFigures } from './keel-variants';

/** keel with `routeCount` routes: boot time and the throughput of its last route. */
export interface LargeTableFigures extends VariantFigures {
  readonly routeCount: number;
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
  const variants = counts.map((routeCount) => ({
    label: `keel-${routeCount}`,
    script: 'keel-routes-server.js',
    env: { ROUTE_COUNT: String(routeCount) },
    route: { name: 'last route', method: 'GET' as const, path: `/r${routeCount - 1}/orders/42`, status: 200 },
  }));
  const figures = await measureVariants(variants, launch, settings, loadCore);
  return figures.map((variant, index) => ({ ...variant, routeCount: counts[index] as number }));
}
