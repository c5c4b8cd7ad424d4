import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable } from '../decorators/injectable';
import { RequestErrors } from '../errors/request-errors';
import { respondOnBareResponse } from '../http/error-responder';
import { ERROR_SHAPE, type ErrorShape } from '../http/error-shape';
import type { ApplicationListener } from '../lifecycle/app-listeners';
import type { OnApplicationShutdown } from '../lifecycle/lifecycle-hooks';
import { bindServer, urlOf } from '../lifecycle/server-binding';
import { LOGGER, type Logger } from '../logging/logger';
import { Metrics } from './metrics';
import { MetricsErrors } from '../errors/metrics-errors';
import type { MetricsSettings } from './metrics-options';
import { METRICS_SETTINGS, sendMetrics } from './metrics-route';

/**
 * The metrics' own listener, where `MetricsModule` has a `port`: it answers `GET <path>` and
 * nothing else (404; 405 for another method), opens once the application listens, on the same
 * host, and closes at its shutdown, after the requests in flight, so a last scrape can still see
 * the drain.
 *
 * @example
 * { provide: APP_LISTENERS, useExisting: MetricsListener }
 */
@Injectable()
export class MetricsListener implements ApplicationListener, OnApplicationShutdown {
  readonly #settings: MetricsSettings;
  readonly #metrics: Metrics;
  readonly #logger: Logger;
  readonly #errorShape: ErrorShape;
  #server: http.Server | undefined;
  #url: string | undefined;

  constructor(
    @Inject(METRICS_SETTINGS) settings: MetricsSettings,
    metrics: Metrics,
    @Inject(LOGGER) logger: Logger,
    @Inject(ERROR_SHAPE) errorShape: ErrorShape,
  ) {
    this.#settings = settings;
    this.#metrics = metrics;
    this.#logger = logger;
    this.#errorShape = errorShape;
  }

  /** Where the metrics are served (`http://127.0.0.1:9464/metrics`) while the listener is open. */
  get url(): string | undefined {
    return this.#url;
  }

  async listen(host: string | undefined): Promise<void> {
    const { port } = this.#settings;
    // Without a port of their own, the metrics are a route of the application's listener.
    if (port === undefined) return;
    const server = http.createServer(this.#answer);
    await bindServer(server, port, host).catch((error: unknown) => {
      throw MetricsErrors.metricsPortUnavailable(port, host, error);
    });
    this.#server = server;
    this.#url = `${urlOf(server.address() as AddressInfo)}${this.#settings.path}`;
    this.#logger.info({ url: this.#url }, 'serving metrics');
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    this.#url = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Prometheus keeps its connection alive between scrapes: it would hold the close forever.
    server.closeAllConnections();
    await closed;
  }

  readonly #answer = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const method = req.method ?? 'GET';
    if (path !== this.#settings.path)
      return respondOnBareResponse(res, RequestErrors.routeNotFound(method, path), this.#errorShape);
    if (method !== 'GET' && method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return respondOnBareResponse(res, RequestErrors.methodNotAllowed(method, path), this.#errorShape);
    }
    sendMetrics(res, this.#metrics).catch((error: unknown) => {
      this.#logger.error({ err: error }, 'collecting the metrics failed');
      if (!res.headersSent) respondOnBareResponse(res, RequestErrors.internalServerError(), this.#errorShape);
    });
  };
}
