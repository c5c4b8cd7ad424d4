import type { Context } from './context';
import type { SseOptions } from './event-stream';
import type { PreparedHandler } from './exchange';
import { isThenable } from './thenable';

/**
 * The handler of an `@Sse()` route: what `handler` returns, or resolves with, is streamed through
 * `ctx.sse()`; nothing (the handler answered itself) is left as it is.
 *
 * @example
 * const call = answeringWithEvents(handler, { keepAliveMs: 15_000 });
 */
export function answeringWithEvents(handler: PreparedHandler, options: SseOptions): PreparedHandler {
  const stream = (ctx: Context, events: unknown): undefined => {
    if (events !== undefined) ctx.sse(events as AsyncIterable<unknown>, options);
    return undefined;
  };
  return (ctx, req) => {
    const result = handler(ctx, req);
    if (isThenable(result)) return Promise.resolve(result).then((events) => stream(ctx, events));
    return stream(ctx, result);
  };
}
