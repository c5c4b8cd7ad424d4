import type { ServerResponse } from 'node:http';
import { Container } from '../container/container';
import { InjectionToken } from '../container/token';
import { Inject, Injectable } from '../decorators/injectable';
import { sendText } from '../http/send';
import { LoadMonitor } from '../http/load-monitor';
import { MetadataKey } from '../metadata/keys';
import type { RouteRegistrar } from '../routing/app-routes';
import type { Router } from '../routing/router';
import { Metrics } from './metrics';
import type { MetricsSettings } from './metrics-options';

/** The settings `MetricsModule.forRoot` was given, filled in. */
export const METRICS_SETTINGS = new InjectionToken<MetricsSettings>('METRICS_SETTINGS');

/**
 * Answers a scrape: every series of `metrics`' registry in Prometheus's text format.
 *
 * @example
 * await sendMetrics(res, metrics);
 */
export async function sendMetrics(res: ServerResponse, metrics: Metrics): Promise<void> {
  const { registry } = metrics;
  sendText(res, 200, registry.contentType, await registry.metrics());
}

/**
 * `GET <path>` on the application's own listener, where `MetricsModule` has no port of its own:
 * a probe's route (its access lines at debug, never shed under load) and not an operation of the
 * OpenAPI document.
 *
 * @example
 * { provide: APP_ROUTES, useExisting: MetricsRoute }
 */
@Injectable()
export class MetricsRoute implements RouteRegistrar {
  readonly #settings: MetricsSettings;
  readonly #metrics: Metrics;
  readonly #load: LoadMonitor;
  readonly #container: Container;

  constructor(
    @Inject(METRICS_SETTINGS) settings: MetricsSettings,
    metrics: Metrics,
    load: LoadMonitor,
    container: Container,
  ) {
    this.#settings = settings;
    this.#metrics = metrics;
    this.#load = load;
    this.#container = container;
  }

  register(router: Router): void {
    const { path, port } = this.#settings;
    // With a port of their own, the metrics listener serves them instead.
    if (port !== undefined) return;
    this.#load.exempt(path);
    router.add({
      method: 'GET',
      path,
      name: 'metrics',
      source: 'MetricsModule',
      doc: { hidden: true },
      handler: (ctx) => sendMetrics(ctx.res, this.#metrics),
      hooks: {
        middleware: [],
        guards: [],
        interceptors: [],
        filters: [],
        metadata: new Map([[MetadataKey.probeRoute, true]]),
        resolve: (type) => this.#container.construct(type),
      },
    });
  }
}
