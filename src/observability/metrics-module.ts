import type { DynamicModule } from '../container/module-definition';
import { optionsProvider, type OptionsFactory } from '../container/options-factory';
import { Module } from '../decorators/module';
import { REQUEST_WATCHERS } from '../http/request-watchers';
import { JOB_OUTCOME_LISTENER } from '../jobs/job-outcomes';
import { APP_LISTENERS } from '../lifecycle/app-listeners';
import { APP_ROUTES } from '../routing/app-routes';
import { DependencyMetrics } from './dependency-metrics';
import { HttpMetrics } from './http-metrics';
import { countJobOutcomes } from './job-metrics';
import { countStoreFailures } from './rate-limit-metrics';
import { STORE_FAILURE_LISTENER } from '../ratelimit/store-failures';
import { Metrics } from './metrics';
import { MetricsListener } from './metrics-listener';
import { resolveMetricsOptions, type MetricsModuleOptions } from './metrics-options';
import { METRICS_SETTINGS, MetricsRoute } from './metrics-route';

/**
 * Prometheus metrics for the application: the HTTP series by route pattern, readiness by
 * dependency, the database pool and Node's own, in a registry of the application's, served in
 * Prometheus's text format at `GET /metrics` (or on a port of their own). `Metrics` is injectable
 * everywhere, to add the application's own series. Without this module no request pays anything.
 *
 * @example
 * @Module({ imports: [MetricsModule.forRoot({ port: 9464 })] })
 * export class AppModule {}
 */
@Module({})
export class MetricsModule {
  /** The metrics at `options.path` (default `/metrics`), on `options.port` or the application's own. @example MetricsModule.forRoot({ inject: [Env], useFactory: (env: Env) => ({ port: env.METRICS_PORT }) }) */
  static forRoot(options: MetricsModuleOptions | OptionsFactory<MetricsModuleOptions> = {}): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      providers: [
        optionsProvider(METRICS_SETTINGS, options, resolveMetricsOptions),
        Metrics,
        HttpMetrics,
        DependencyMetrics,
        { provide: REQUEST_WATCHERS, useFactory: (http: HttpMetrics) => http.watcher, inject: [HttpMetrics] },
        { provide: JOB_OUTCOME_LISTENER, useFactory: countJobOutcomes, inject: [Metrics] },
        { provide: STORE_FAILURE_LISTENER, useFactory: countStoreFailures, inject: [Metrics] },
        // Both are registered; the settings, known only at boot when a factory makes them, choose
        // the one that serves.
        MetricsRoute,
        { provide: APP_ROUTES, useExisting: MetricsRoute },
        MetricsListener,
        { provide: APP_LISTENERS, useExisting: MetricsListener },
      ],
      exports: [Metrics],
    };
  }
}
