import { Container } from '../container/container';
import { loadTypeOrm } from '../database/typeorm';
import type { DynamicModule } from '../container/module-definition';
import { Controller } from '../decorators/controller';
import { Inject } from '../decorators/injectable';
import { Module } from '../decorators/module';
import { Get } from '../decorators/route';
import type { Context } from '../http/context';
import { ApplicationStatus } from '../lifecycle/application-status';
import { LOGGER, type Logger } from '../logging/logger';
import { HealthEndpoints } from './health-endpoints';
import { resolveHealthOptions, type HealthModuleOptions } from './health-options';

/**
 * The health endpoints through DI: `GET /health` and `GET /health/ready`, whose `DataSource` is
 * looked up in the container at each check (whichever module provides it), or comes from
 * `options.dataSource`.
 *
 * @example
 * @Module({ imports: [DatabaseModule.forRoot(options), HealthModule.forRoot()] })
 * export class AppModule {}
 */
@Module({})
export class HealthModule {
  /** The health controller under `options.path` (default `/health`). @example HealthModule.forRoot({ timeoutMs: 800 }) */
  static forRoot(options: HealthModuleOptions = {}): DynamicModule {
    const settings = resolveHealthOptions(options);
    const { DataSource } = loadTypeOrm();

    // A class per call: the route prefix is an option, and decorators record it on the class.
    @Controller(settings.path)
    class HealthController {
      readonly #endpoints: HealthEndpoints;

      constructor(container: Container, status: ApplicationStatus, @Inject(LOGGER) logger: Logger) {
        this.#endpoints = new HealthEndpoints({
          resolveDataSource: options.dataSource ?? (() => container.get(DataSource)),
          status,
          logger,
          settings,
        });
      }

      @Get('', { name: settings.names.liveness })
      liveness(ctx: Context): void {
        this.#endpoints.liveness(ctx);
      }

      @Get('ready', { name: settings.names.readiness })
      readiness(ctx: Context): Promise<void> {
        return this.#endpoints.readiness(ctx);
      }
    }

    return { module: HealthModule, controllers: [HealthController] };
  }
}
