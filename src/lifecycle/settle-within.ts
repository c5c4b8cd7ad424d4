/**
 * `work`'s value, or `fallback()`'s when `ms` pass first; the timer never outlives the race. `work`
 * itself goes on: the caller decides what becomes of it.
 *
 * @example
 * const isClosed = await settleWithin(closed, 500, () => false);
 */
export function settleWithin<T>(work: Promise<T>, ms: number, fallback: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback()), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
