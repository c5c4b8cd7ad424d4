import type * as PromClient from 'prom-client';
import type {
  Counter,
  CounterConfiguration,
  Gauge,
  GaugeConfiguration,
  Histogram,
  HistogramConfiguration,
  Registry,
} from 'prom-client';
import { Injectable } from '../decorators/injectable';

// The series' types, as an application names them in its own fields.
export type { Counter, Gauge, Histogram };

/** A series' definition as prom-client takes it, without `registers`: the application's registry is the one. */
export type MetricDefinition<Configuration> = Omit<Configuration, 'registers'>;

const NOT_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * The application's Prometheus registry, which `MetricsModule` serves: keel's series, Node's
 * defaults, and the application's own, registered here. One per application, never prom-client's
 * global one, so that two applications in one process keep their series apart.
 *
 * @example
 * constructor(metrics: Metrics) {
 *   this.#orders = metrics.counter({ name: 'orders_created_total', help: 'Orders created', labelNames: ['channel'] });
 * }
 */
@Injectable()
export class Metrics {
  /** prom-client's registry, for what the three methods do not cover (`registry.getSingleMetric(name)`). */
  readonly registry: Registry;
  readonly #prom: typeof PromClient;

  constructor() {
    this.#prom = loadPromClient();
    this.registry = new this.#prom.Registry();
    // Node's own: CPU, memory, heap, event-loop delay, GC, handles.
    this.#prom.collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters, which `promtool check metrics` rejects; each is the sum of the
    // series by type beside it (`sum(nodejs_active_handles)`).
    for (const name of NOT_COUNTERS) this.registry.removeSingleMetric(name);
  }

  /** A counter in this registry. @example metrics.counter({ name: 'jobs_total', help: 'Jobs run', labelNames: ['outcome'] }).inc({ outcome: 'done' }) */
  counter<Label extends string>(definition: MetricDefinition<CounterConfiguration<Label>>): Counter<Label> {
    return new this.#prom.Counter({ ...definition, registers: [this.registry] });
  }

  /** A gauge in this registry. @example metrics.gauge({ name: 'queue_depth', help: 'Jobs waiting' }).set(3) */
  gauge<Label extends string>(definition: MetricDefinition<GaugeConfiguration<Label>>): Gauge<Label> {
    return new this.#prom.Gauge({ ...definition, registers: [this.registry] });
  }

  /** A histogram in this registry. @example metrics.histogram({ name: 'render_seconds', help: 'Render time', buckets: [0.01, 0.1, 1] }).observe(0.02) */
  histogram<Label extends string>(
    definition: MetricDefinition<HistogramConfiguration<Label>>,
  ): Histogram<Label> {
    return new this.#prom.Histogram({ ...definition, registers: [this.registry] });
  }
}

/**
 * prom-client, loaded when an application first makes its registry: one without `MetricsModule`
 * never loads it (about 45 ms of a cold start).
 */
function loadPromClient(): typeof PromClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load
  return require('prom-client') as typeof PromClient;
}
