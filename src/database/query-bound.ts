import type { DatabaseOutage } from './database-outage';
import { QueryTimeoutError } from './database-unavailable';

/** How a driver's queries are bounded: the limit, and who hears of each outcome. */
export interface QueryBound {
  readonly timeoutMs: number;
  readonly outage: DatabaseOutage;
}

/** A driver's node-style query callback. */
export type QueryCallback = (error: Error | null | undefined, ...results: unknown[]) => void;

/**
 * `callback`, called once: with the driver's outcome, or with a {@link QueryTimeoutError} when the
 * driver has not answered within `bound.timeoutMs`, in which case `abandon` closes the connection
 * first, so that the pool never hands it out again and its slot is freed. Each outcome reaches
 * `bound.outage`.
 *
 * @example
 * client.query(text, values, boundCallback(callback, bound, () => client.end()));
 */
export function boundCallback(
  callback: QueryCallback,
  bound: QueryBound,
  abandon: () => void,
): QueryCallback {
  let isSettled = false;
  const timer = setTimeout(() => {
    isSettled = true;
    const error = new QueryTimeoutError(bound.timeoutMs);
    abandon();
    bound.outage.observe(error);
    callback(error);
  }, bound.timeoutMs);
  // A query keeps the process alive by its socket; the timer need not.
  timer.unref();
  return (error, ...results) => {
    if (isSettled) return;
    isSettled = true;
    clearTimeout(timer);
    bound.outage.observe(error ?? undefined);
    callback(error, ...results);
  };
}
