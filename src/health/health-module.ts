import { Container } from '../container/container';
import type { DynamicModule } from '../container/module-definition';
import { optionsProvider, type OptionsFactory } from '../container/options-factory';
import { InjectionToken, type Class } from '../container/token';
import { Injectable } from '../decorators/injectable';
import { loadTypeOrm } from '../orm/typeorm';
import { Module } from '../decorators/module';
import { healthController, type ReadinessSettings } from './health-controller';
import { resolveHealthOptions, type HealthModuleOptions } from './health-options';
import { READINESS, type ReadinessSource, type ReadinessState } from './readiness-source';

/**
 * `HealthModule`'s options made at boot by a factory with the providers it needs; the path stays
 * fixed, since the routes are declared with it.
 *
 * @example
 * HealthModule.forRoot({ inject: [Env], useFactory: (env: Env) => ({ exposeReason: env.NODE_ENV !== 'production' }) })
 */
export interface HealthModuleFactory extends OptionsFactory<Omit<HealthModuleOptions, 'path'>> {
  path?: string;
}

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
  /** The health controller under `options.path` (default `/health`); its options given, or made by a factory. @example HealthModule.forRoot({ timeoutMs: 800 }) */
  static forRoot(options: HealthModuleOptions | HealthModuleFactory = {}): DynamicModule {
    const { path } = options;
    loadTypeOrm();
    // One token per call: an application may serve its health routes under two paths.
    const readiness = new InjectionToken<ReadinessSettings>('HealthModule options');
    const controller = healthController(resolveHealthOptions({ path }), readiness);
    return {
      module: HealthModule,
      controllers: [controller],
      providers: [
        optionsProvider(readiness, options, (given: HealthModuleOptions) => ({
          settings: resolveHealthOptions({ ...given, path }),
          resolveDataSource: given.dataSource,
        })),
        { provide: READINESS, useClass: readinessOf(controller) },
      ],
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
