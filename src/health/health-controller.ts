import { Container } from '../container/container';
import { InjectionToken, type Class } from '../container/token';
import { loadTypeOrm } from '../orm/typeorm';
import { Controller } from '../decorators/controller';
import { Inject } from '../decorators/injectable';
import { SetMetadata } from '../decorators/hooks';
import { Get } from '../decorators/route';
import type { Context } from '../http/context';
import { ApplicationStatus } from '../lifecycle/application-status';
import { LoadMonitor } from '../http/load-monitor';
import { joinPath } from '../routing/path';
import { LOGGER, type Logger } from '../logging/logger';
import type { CheckSettings } from './check-settings';
import { isCheckProvider, type CheckFunction } from './health-check';
import { MetadataKey } from '../metadata/keys';
import { HealthEndpoints } from './health-endpoints';
import type { HealthSettings } from './health-options';
import { LIVENESS_ANSWERS, READINESS_ANSWERS } from './health-answers';
import { MODULE_CHECKS } from './module-checks';
import { NamedCheck } from './named-check';
import type { DataSourceResolver } from './readiness-check';
import type { ReadinessSource, ReadinessState } from './readiness-source';

/** Where the health routes are: fixed when the controller is made, since decorators record them. */
export type HealthRoute = Pick<HealthSettings, 'path' | 'names'>;

/** How readiness checks: its settings, and where the `DataSource` comes from (else the container). */
export interface ReadinessSettings {
  readonly settings: HealthSettings;
  readonly resolveDataSource?: DataSourceResolver | undefined;
}

/**
 * The controller of `GET <path>` (liveness) and `GET <path>/ready` (readiness), one class per call
 * (the path is an option, and decorators record it on the class). DI gives it the application's
 * status and logger; readiness's settings are given, or provided under a token (made at boot by a
 * factory); the `DataSource` comes from their `resolveDataSource`, else from the container, at each
 * check. `HealthModule` and `registerHealthRoutes` both serve it.
 *
 * @example
 * const settings = resolveHealthOptions({});
 * router.controller(healthController(settings, { settings, resolveDataSource: () => dataSource }));
 */
export function healthController(
  route: HealthRoute,
  readiness: ReadinessSettings | InjectionToken<ReadinessSettings>,
): Class<ReadinessSource> {
  // Probes come every few seconds from every orchestrator and balancer: their access lines are debug.
  @Controller(route.path)
  @SetMetadata(MetadataKey.probeRoute, true)
  class HealthController implements ReadinessSource {
    readonly #endpoints: HealthEndpoints;

    constructor(
      container: Container,
      status: ApplicationStatus,
      load: LoadMonitor,
      @Inject(LOGGER) logger: Logger,
    ) {
      // An overloaded process still tells its orchestrator it is alive, and why it is not ready.
      load.exempt(route.path);
      load.exempt(joinPath(route.path, 'ready'));
      const { settings, resolveDataSource } =
        readiness instanceof InjectionToken ? container.get(readiness) : readiness;
      this.#endpoints = new HealthEndpoints({
        load,
        resolveDataSource: resolveDataSource ?? fromContainer(container),
        checks: () => [
          ...settings.checks.map((check) => namedCheck(check, container)),
          ...container.getAll(MODULE_CHECKS).map(({ name, check }) => {
            return new NamedCheck(name, check, { isOptional: false, timeoutMs: settings.timeoutMs });
          }),
        ],
        status,
        logger,
        settings,
      });
    }

    @Get('', { name: route.names.liveness })
    @SetMetadata(MetadataKey.routeAnswers, LIVENESS_ANSWERS)
    liveness(ctx: Context): void {
      this.#endpoints.liveness(ctx);
    }

    @Get('ready', { name: route.names.readiness })
    @SetMetadata(MetadataKey.routeAnswers, READINESS_ANSWERS)
    readiness(ctx: Context): Promise<void> {
      return this.#endpoints.readiness(ctx);
    }

    evaluate(): Promise<ReadinessState> {
      return this.#endpoints.evaluate();
    }
  }
  return HealthController;
}

// A check class is built through DI at its first check, when every provider exists.
function namedCheck({ name, run, isOptional, timeoutMs }: CheckSettings, container: Container): NamedCheck {
  const check: CheckFunction = isCheckProvider(run)
    ? (signal) => container.construct(run).check(signal)
    : run;
  return new NamedCheck(name, check, { isOptional, timeoutMs });
}

// Whichever module provides the `DataSource`, looked up at each check: it may come after the routes.
function fromContainer(container: Container): DataSourceResolver {
  const { DataSource } = loadTypeOrm();
  return () => container.get(DataSource);
}
