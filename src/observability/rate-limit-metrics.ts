import type { StoreFailureListener } from '../ratelimit/store-failures';
import type { Metrics } from './metrics';

/**
 * `keel_rate_limit_store_failures_total{store}`: every call to the rate limit store that failed on
 * this replica (down, not answering within `timeoutMs`, not connected yet), each of which let a
 * limited request through unlimited, or answered it 503 with `failClosed`. The log says so at most
 * once a minute; the counter counts them all. Without `RateLimitModule` it has no samples.
 *
 * @example
 * { provide: STORE_FAILURE_LISTENER, useFactory: countStoreFailures, inject: [Metrics] }
 */
export function countStoreFailures(metrics: Metrics): StoreFailureListener {
  const failures = metrics.counter({
    name: 'keel_rate_limit_store_failures_total',
    help: 'Calls to the rate limit store that failed on this replica, by store: postgres or redis',
    labelNames: ['store'],
  });
  return (store) => failures.inc({ store });
}
