import type { Context, Span } from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuthUser } from './auth-user';
import type { RouteInfo } from './route-info';

/** The request being served, as {@link currentRequest} gives it. */
export interface CurrentRequest {
  /** Its id: the valid incoming `X-Request-Id`, or a generated one. */
  readonly requestId: string;
  /** The matched route (`ctx.route`); undefined before routing and for a request no route matched. */
  readonly route: RouteInfo | undefined;
  /** The trace it belongs to, when tracing is on. */
  readonly traceId: string | undefined;
  /** The user `AuthModule` authenticated it as; undefined on a public route or without `AuthModule`. */
  readonly user: AuthUser | undefined;
}

/**
 * What keel knows of one request while it is served: one object per request, made by the
 * dispatcher and filled in as the request goes (its route once matched), read by the context, the
 * log lines and the access log, and given out as it is by {@link currentRequest}.
 *
 * @example
 * const state = new RequestState('edge-7f3a');
 * requestScope.run(state, serve, req, res);
 */
export class RequestState implements CurrentRequest {
  route: RouteInfo | undefined = undefined;
  /** Set by authentication, once the request's credentials name a user. */
  user: AuthUser | undefined = undefined;
  /** Set by tracing, where it is on, and carried by every log line of the request. */
  traceId: string | undefined = undefined;
  spanId: string | undefined = undefined;
  /** Set by tracing, where it is on: the request's span and the context its steps run in. */
  trace: RequestTrace | undefined = undefined;
  /** The matched route is a probe (health, metrics): the access log keeps its lines at debug. */
  isProbe = false;
  /** When it arrived (`performance.now()`), and what its connection had written by then: the access log's. */
  startedAt = 0;
  bytesBefore: number | null = 0;
  /** When its answer closed (`performance.now()`), read by every watcher told so. */
  closedAt = 0;

  constructor(readonly requestId: string) {}
}

/** What tracing keeps of one request. */
export interface RequestTrace {
  readonly span: Span;
  /** The trace context every step of the request runs in: its span is the active one. */
  readonly context: Context;
  /** keel made the span (it ends it), rather than an HTTP instrumentation that ran first. */
  readonly isOwn: boolean;
  /** The last error that took the request's error path: recorded on the span if the answer is a 5xx. */
  error: unknown;
}

/**
 * The request each piece of asynchronous work belongs to. The dispatcher runs each step of a
 * request in it: the work a step starts (promises, timers) inherits it, and the steps that resume
 * from a stream's events (after a body is read) are put back in it.
 *
 * @example requestScope.run(state, serve, req, res)
 */
export const requestScope = new AsyncLocalStorage<RequestState>();

/**
 * The request being served by the code that calls it, anywhere in that request's asynchronous
 * work (a service called by the handler, after an `await` or in a `setTimeout`), with no `ctx`
 * passed; undefined outside a request.
 *
 * @example
 * const { requestId } = currentRequest() ?? { requestId: 'none' };
 */
export function currentRequest(): CurrentRequest | undefined {
  return requestScope.getStore();
}
