import { Container } from '../container/container';
import type { Class } from '../container/token';
import { loadTypeOrm } from '../database/typeorm';
import { Controller } from '../decorators/controller';
import { Inject } from '../decorators/injectable';
import { SetMetadata } from '../decorators/hooks';
import { Get } from '../decorators/route';
import type { Context } from '../http/context';
import { ApplicationStatus } from '../lifecycle/application-status';
import { LoadMonitor } from '../lifecycle/load-monitor';
import { joinPath } from '../routing/path';
import { LOGGER, type Logger } from '../logging/logger';
import type { CheckSettings } from './check-settings';
import { isCheckProvider, type CheckFunction } from './health-check';
import { MetadataKey } from '../metadata/keys';
import { HealthEndpoints } from './health-endpoints';
import type { HealthSettings } from './health-options';
import { LIVENESS_ANSWERS, READINESS_ANSWERS } from './health-answers';
import { NamedCheck } from './named-check';
import type { DataSourceResolver } from './readiness-check';
import type { ReadinessSource, ReadinessState } from './readiness-source';

/**
 * The controller of `GET <path>` (liveness) and `GET <path>/ready` (readiness), one class per call
 * (the path is an option, and decorators record it on the class). DI gives it the application's
 * status and logger; the `DataSource` comes from `resolveDataSource`, else from the container, at
 * each check. `HealthModule` and `registerHealthRoutes` both serve it.
 *
 * @example
 * router.controller(healthController(resolveHealthOptions({}), () => dataSource));
 */
export function healthController(
  settings: HealthSettings,
  resolveDataSource?: DataSourceResolver,
): Class<ReadinessSource> {
  // Probes come every few seconds from every orchestrator and balancer: their access lines are debug.
  @Controller(settings.path)
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
      load.exempt(settings.path);
      load.exempt(joinPath(settings.path, 'ready'));
      this.#endpoints = new HealthEndpoints({
        load,
        resolveDataSource: resolveDataSource ?? fromContainer(container),
        checks: settings.checks.map((check) => namedCheck(check, container)),
        status,
        logger,
        settings,
      });
    }

    @Get('', { name: settings.names.liveness })
    @SetMetadata(MetadataKey.routeAnswers, LIVENESS_ANSWERS)
    liveness(ctx: Context): void {
      this.#endpoints.liveness(ctx);
    }

    @Get('ready', { name: settings.names.readiness })
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
