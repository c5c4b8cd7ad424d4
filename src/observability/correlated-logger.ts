import type { Logger } from '../logging/logger';
import { requestScope } from '../http/request-state';

type Level = keyof Logger;

/**
 * `base`, with every line logged while a request is served carrying that request's `requestId`
 * (and `traceId` and `spanId` where tracing is on): services' lines included, found through the
 * request's scope, with no `ctx` passed. Outside a request, a line goes out as it was given.
 *
 * @example
 * const logger = correlatedLogger(pino());
 * logger.info({ orderId: 7 }, 'order shipped'); // {"requestId":"edge-7f3a","orderId":7,"msg":"order shipped",...}
 */
export function correlatedLogger(base: Logger): Logger {
  const at =
    (level: Level) =>
    (details: object, message?: string): void => {
      const state = requestScope.getStore();
      const line = state === undefined ? details : withRequest(details, state);
      if (message === undefined) base[level](line);
      else base[level](line, message);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** What of the request a line carries. */
interface RequestFields {
  readonly requestId: string;
  readonly traceId: string | undefined;
  readonly spanId: string | undefined;
}

// The request's fields first, so a line's own (a `requestId` a caller gave) win. An Error logged
// as the details goes under `err`, as pino would put it: spreading it would lose its message.
function withRequest(details: object, { requestId, traceId, spanId }: RequestFields): object {
  const own = details instanceof Error ? { err: details } : details;
  if (traceId === undefined) return { requestId, ...own };
  return { requestId, traceId, spanId, ...own };
}
