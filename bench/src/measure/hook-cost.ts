import type { ServerLaunch } from '../processes/server-process';
import type { BenchSettings } from '../settings';
import { measureVariants, type VariantFigures } from './keel-variants';
import { ROUTES, type BenchRoute } from './routes';

const ORDER_ROUTE = ROUTES.find((route) => route.name === 'GET /orders/:id') as BenchRoute;

/** The two builds compared, as the report names them. */
export const HOOK_VARIANTS = { without: 'no hooks', with: 'one APP_GUARD and one APP_INTERCEPTOR' } as const;

/**
 * `GET /orders/:id` in keel without hooks, then with one global guard and one global interceptor,
 * interleaved round by round: what the hook chain costs a route per request.
 */
export function measureHookCost(
  launch: ServerLaunch,
  settings: BenchSettings,
  loadCore: number | undefined,
): Promise<VariantFigures[]> {
  const variant = (label: string, hooks: string) => ({
    label,
    script: 'keel-hooks-server.js',
    env: { HOOKS: hooks },
    route: ORDER_ROUTE,
  });
  return measureVariants(
    [variant(HOOK_VARIANTS.without, '0'), variant(HOOK_VARIANTS.with, '1')],
    launch,
    settings,
    loadCore,
  );
}
