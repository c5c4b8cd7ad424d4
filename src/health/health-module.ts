import type { DynamicModule } from '../container/module-definition';
import { loadTypeOrm } from '../database/typeorm';
import { Module } from '../decorators/module';
import { healthController } from './health-controller';
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
    loadTypeOrm();
    return { module: HealthModule, controllers: [healthController(settings, options.dataSource)] };
  }
}
