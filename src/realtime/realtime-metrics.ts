import type { Counter, Gauge, Metrics } from '../observability/metrics';

/** What a realtime connection is: a gateway's WebSocket, or a `Broadcast` event stream. */
export type RealtimeKind = 'websocket' | 'sse';

/** Where one kind of realtime connection reports its connections and messages. @internal */
export interface RealtimeCounters {
  /** One connection opened (1) or closed (-1). */
  connections(delta: 1 | -1): void;
  message(direction: 'in' | 'out'): void;
}

interface RealtimeSeries {
  readonly connections: Gauge<'kind'>;
  readonly messages: Counter<'direction'>;
}

/** Counts nothing: an application without `MetricsModule`. @internal */
export const NO_REALTIME_COUNTERS: RealtimeCounters = {
  connections: () => undefined,
  message: () => undefined,
};

// The gateways and the event streams of one application share its series, made by whichever asks first.
const seriesByRegistry = new WeakMap<Metrics, RealtimeSeries>();

/**
 * `keel_realtime_connections{kind}` and `keel_realtime_messages_total{direction}` for connections
 * of `kind`, whose gauge reads 0 from here on: asked for only by an application that serves that
 * kind, so that one without realtime scrapes no realtime series.
 * @internal
 *
 * @example
 * const counters = realtimeCounters(metrics, 'sse');
 * counters.connections(1);
 */
export function realtimeCounters(metrics: Metrics | undefined, kind: RealtimeKind): RealtimeCounters {
  if (!metrics) return NO_REALTIME_COUNTERS;
  let series = seriesByRegistry.get(metrics);
  if (!series) {
    series = {
      connections: metrics.gauge({
        name: 'keel_realtime_connections',
        help: 'Open realtime connections, by kind: gateway WebSockets (websocket), Broadcast event streams (sse)',
        labelNames: ['kind'],
      }),
      messages: metrics.counter({
        name: 'keel_realtime_messages_total',
        help: 'WebSocket frames and SSE events received (in) and sent (out)',
        labelNames: ['direction'],
      }),
    };
    // Both directions from the first scrape, at 0: a replica no client has reached yet (the last
    // one a rolling restart replaced) says so, rather than leaving a hole a sum or a rate() skips.
    series.messages.inc({ direction: 'in' }, 0);
    series.messages.inc({ direction: 'out' }, 0);
    seriesByRegistry.set(metrics, series);
  }
  const { connections, messages } = series;
  connections.set({ kind }, 0);
  return {
    connections: (delta) => connections.inc({ kind }, delta),
    message: (direction) => messages.inc({ direction }),
  };
}
