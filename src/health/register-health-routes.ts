import type { Router } from '../routing/router';
import { healthController } from './health-controller';
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
  // The controller's DI gives it the application's status (503 while shutting down) and logger.
  const settings = resolveHealthOptions(options);
  return router.controller(healthController(settings, { settings, resolveDataSource }));
}
