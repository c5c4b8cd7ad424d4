/**
 * Whether `value` is a promise or promise-like: what keel awaits from handlers, hooks and
 * middleware, which may answer at once or later. @example isThenable(Promise.resolve()) // true
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function';
}
