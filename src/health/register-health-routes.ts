import { joinPath } from '../routing/path';
import type { Router } from '../routing/router';
import { HealthEndpoints } from './health-endpoints';
import { resolveHealthOptions, type HealthOptions } from './health-options';
import type { DataSourceResolver } from './readiness-check';

/**
 * Adds `GET /health` (liveness) and `GET /health/ready` (readiness of the database) to `router`.
 * `resolveDataSource` is called at each readiness check, never here, so the `DataSource` may be
 * created, or connected, after the routes are registered. Readiness initialises a `DataSource`
 * nobody has; one you initialise yourself, do it with `initializeOnce(dataSource)`, which readiness
 * joins instead of starting a second `initialize()` (TypeORM cannot tell it one is running).
 *
 * @example
 * registerHealthRoutes(app.router, () => dataSource, { timeoutMs: 800 });
 */
export function registerHealthRoutes(
  router: Router,
  resolveDataSource: DataSourceResolver,
  options: HealthOptions = {},
): Router {
  const settings = resolveHealthOptions(options);
  const endpoints = new HealthEndpoints({
    resolveDataSource,
    status: router.status,
    logger: router.logger,
    settings,
  });
  return router.add(
    {
      method: 'GET',
      path: settings.path,
      handler: (ctx) => endpoints.liveness(ctx),
      name: settings.names.liveness,
      source: 'registerHealthRoutes (liveness)',
    },
    {
      method: 'GET',
      path: joinPath(settings.path, 'ready'),
      handler: (ctx) => endpoints.readiness(ctx),
      name: settings.names.readiness,
      source: 'registerHealthRoutes (readiness)',
    },
  );
}
