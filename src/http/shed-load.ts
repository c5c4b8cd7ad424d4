import type { IncomingMessage, ServerResponse } from 'node:http';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import type { RequestRefusal } from './dispatcher';
import { answerOf } from './error-responder';
import type { ErrorShape } from './error-shape';
import type { LoadMonitor } from './load-monitor';

/**
 * The dispatcher's refusal, asked before any phase (no body is read), that answers 503 `overloaded` (in `shape`) with
 * `Retry-After` while `monitor` says a limit is passed, except on the paths it exempts (the health
 * routes): the cheapest answer there is, since the process is short of time or memory. The overload
 * is logged when it starts and ends, not per request.
 *
 * @example
 * new Dispatcher({ ...parts, refuse: shedLoad(monitor) });
 */
export function shedLoad(monitor: LoadMonitor, shape: ErrorShape): RequestRefusal {
  // Written once: this answer is kept as cheap as can be, so it skips the responder, and carries
  // the headers the responder would set.
  const overloaded = shape.body(answerOf(LifecycleErrors.overloaded));
  const length = String(Buffer.byteLength(overloaded));
  return (req: IncomingMessage, res: ServerResponse) => {
    if (monitor.overload === undefined) return false;
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    if (monitor.isExempt(queryAt < 0 ? url : url.slice(0, queryAt))) return false;
    res.writeHead(LifecycleErrors.overloaded.status, {
      'Content-Type': shape.contentType,
      'Content-Length': length,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Retry-After': String(monitor.retryAfterS),
    });
    res.end(overloaded);
    return true;
  };
}
