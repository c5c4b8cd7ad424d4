import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestState } from './request-state';

/** Runs one step of a request (`step(...args)`) in that request's scope. */
export type ScopeEntry = <A extends unknown[]>(
  state: RequestState,
  step: (...args: A) => void,
  ...args: A
) => void;

/**
 * What the dispatcher asks of tracing, where a tracer provider is registered: a span for each
 * request, and a trace context that every step of the request runs in, so that the spans the
 * application makes are the request's children.
 */
export interface RequestTracing {
  /** Opens the span of a request as it arrives (sets `state.trace`, `traceId`, `spanId`); it ends when the answer closes. */
  open(state: RequestState, req: IncomingMessage, res: ServerResponse): void;
  /** Enters the request's scope and its trace context: every step of a request starts here. */
  readonly enter: ScopeEntry;
  /** Tells the request's span of an error that took the error path, from within the request's scope. */
  fail(error: unknown): void;
}
