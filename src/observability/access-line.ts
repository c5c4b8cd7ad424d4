import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestState } from '../http/request-state';

/** One access line's fields; `msg` is `'request'`. */
export interface AccessLine {
  method: string | undefined;
  /** The path, without the query: a query may hold what must not be logged (tokens, emails). */
  path: string;
  /** The matched route's pattern (`/orders/:id`), null for a request no route matched. */
  route: string | null;
  /** null when the client left before the answer's headers went out. */
  status: number | null;
  /** From the request's arrival to the answer's end (or the client's leaving), to 0.01 ms. */
  ms: number;
  /** What the answer wrote to its connection, headers included; null without a socket (in-process requests). */
  bytes: number | null;
  requestId: string;
  traceId?: string;
  aborted?: true;
}

/** The fields of `req`'s access line, once its response has closed. @example accessLine(state, req, res).route // '/orders/:id' */
export function accessLine(state: RequestState, req: IncomingMessage, res: ServerResponse): AccessLine {
  // Ended by the server, not flushed to the client: an in-process response is never flushed.
  const isAborted = !res.writableEnded;
  const after = bytesWritten(req);
  const line: AccessLine = {
    method: req.method,
    path: requestPath(req),
    route: state.route === undefined ? null : state.route.path,
    status: res.headersSent ? res.statusCode : null,
    ms: Math.round((state.closedAt - state.startedAt) * 100) / 100,
    bytes: after === null || state.bytesBefore === null ? null : after - state.bytesBefore,
    requestId: state.requestId,
  };
  if (state.traceId !== undefined) line.traceId = state.traceId;
  if (isAborted) line.aborted = true;
  return line;
}

/**
 * The path `req` arrived with, without its query (middleware mounted on a prefix rewrites `req.url`).
 *
 * @example requestPath(req) // '/orders/7' for GET /orders/7?token=...
 */
export function requestPath(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** What has been written to `req`'s connection so far; null for an in-process request, which has no real socket. @example bytesWritten(req) // 1843 */
export function bytesWritten(req: IncomingMessage): number | null {
  const written = (req.socket as { bytesWritten?: unknown } | null)?.bytesWritten;
  return typeof written === 'number' ? written : null;
}
