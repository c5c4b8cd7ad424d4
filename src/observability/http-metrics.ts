import type { ServerResponse } from 'node:http';
import { Injectable } from '../decorators/injectable';
import type { RequestWatcher } from '../http/request-watchers';
import type { RouteInfo } from '../http/route-info';
import { Metrics } from './metrics';
import { RequestHistogram, type HistogramSeries } from './request-histogram';

type HttpLabel = 'method' | 'route' | 'status';
type HttpLabels = Readonly<Record<HttpLabel, string>>;

const HTTP_LABELS: readonly HttpLabel[] = ['method', 'route', 'status'];
const DURATION = 'http_request_duration_seconds';

// nginx's code for a request whose client went away before any answer: there was no status.
const CLIENT_CLOSED = 499;

/**
 * The HTTP series (`http_requests_total`, `http_request_duration_seconds`,
 * `http_requests_in_flight`), kept by a watcher the dispatcher calls for every request. The
 * `route` label is the matched route's pattern, `""` for a request no route matched, so no raw
 * path ever becomes a series. Per request it does one histogram observation, in a series made
 * once per route, method and status; the counter and the in-flight gauge are read at scrape time.
 *
 * @example
 * new Dispatcher({ ...parts, watch: new HttpMetrics(metrics).watcher });
 */
@Injectable()
export class HttpMetrics {
  readonly #duration: RequestHistogram;
  readonly #series = new Map<RouteInfo | undefined, Map<string, Map<number, HistogramSeries>>>();
  #inFlight = 0;

  constructor(metrics: Metrics) {
    const duration = new RequestHistogram(metrics.registry, {
      name: DURATION,
      help: "Time from a request's arrival to the end of its answer, by method, route pattern and status",
    });
    this.#duration = duration;
    // The histogram's count is the number of requests: the counter is copied from it at scrape
    // time rather than incremented beside it on every request.
    metrics.counter({
      name: 'http_requests_total',
      help: 'Requests answered (or whose client left), by method, route pattern and status',
      labelNames: HTTP_LABELS,
      async collect() {
        this.reset();
        for (const { metricName, labels, value } of (await duration.get()).values) {
          if (metricName === `${DURATION}_count`) this.inc(labels as HttpLabels, value);
        }
      },
    });
    const inFlight = (): number => this.#inFlight;
    metrics.gauge({
      name: 'http_requests_in_flight',
      help: 'Requests arrived and not yet answered',
      collect() {
        this.set(inFlight());
      },
    });
  }

  /** Times and counts one request, from its arrival until its answer ends or its client leaves. */
  readonly watcher: RequestWatcher = {
    arrived: () => {
      this.#inFlight += 1;
    },
    closed: (state, req, res) => {
      this.#inFlight -= 1;
      const series = this.#seriesOf(state.route, req.method ?? '', res);
      series.observe((state.closedAt - state.startedAt) / 1000);
    },
  };

  #seriesOf(route: RouteInfo | undefined, method: string, res: ServerResponse): HistogramSeries {
    const status = res.headersSent ? res.statusCode : CLIENT_CLOSED;
    let byMethod = this.#series.get(route);
    if (!byMethod) this.#series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      const labels: HttpLabels = { method, route: route?.path ?? '', status: String(status) };
      byStatus.set(status, (series = this.#duration.series(labels)));
    }
    return series;
  }
}
