import { Container } from '../container/container';
import type { DynamicModule } from '../container/module-definition';
import type { Class } from '../container/token';
import { Injectable } from '../decorators/injectable';
import { loadTypeOrm } from '../database/typeorm';
import { Module } from '../decorators/module';
import { healthController } from './health-controller';
import { resolveHealthOptions, type HealthModuleOptions } from './health-options';
import { READINESS, type ReadinessSource, type ReadinessState } from './readiness-source';

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
    const controller = healthController(settings, options.dataSource);
    return {
      module: HealthModule,
      controllers: [controller],
      providers: [{ provide: READINESS, useClass: readinessOf(controller) }],
    };
  }
}

// The controller, built after the providers, holds the probes' checks: asked through it, whoever
// else asks (the gauge) shares them.
function readinessOf(controller: Class<ReadinessSource>): Class<ReadinessSource> {
  @Injectable()
  class HealthReadiness implements ReadinessSource {
    readonly #container: Container;

    constructor(container: Container) {
      this.#container = container;
    }

    evaluate(): Promise<ReadinessState> {
      return this.#container.get(controller).evaluate();
    }
  }
  return HealthReadiness;
}
