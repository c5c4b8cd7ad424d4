import type { RequestHandler } from 'express';
import type { LoadMonitor } from './load-monitor';

const OVERLOADED = JSON.stringify({ error: 'overloaded' });

/**
 * Application middleware, first of all, that answers 503 `{"error":"overloaded"}` with
 * `Retry-After` while `monitor` says a limit is passed, except on the paths it exempts (the health
 * routes): the cheapest answer there is, since the process is short of time or memory. The overload
 * is logged when it starts and ends, not per request.
 *
 * @example
 * pipeline.use([shedLoad(monitor)]);
 */
export function shedLoad(monitor: LoadMonitor): RequestHandler {
  return (req, res, next) => {
    if (monitor.overload === undefined) return next();
    const url = req.url;
    const queryAt = url.indexOf('?');
    if (monitor.isExempt(queryAt < 0 ? url : url.slice(0, queryAt))) return next();
    res.writeHead(503, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(OVERLOADED)),
      'Cache-Control': 'no-store',
      'Retry-After': String(monitor.retryAfterS),
    });
    res.end(OVERLOADED);
  };
}
