import {
  context,
  isSpanContextValid,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Exception,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestScope, type RequestState, type RequestTrace } from '../http/request-state';
import type { RequestTracing } from '../http/request-tracing';
import { requestPath } from './access-line';

// OpenTelemetry's HTTP semantic conventions, and keel's own attribute.
const HTTP_REQUEST_METHOD = 'http.request.method';
const URL_PATH = 'url.path';
const HTTP_ROUTE = 'http.route';
const HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
const KEEL_ROUTE_NAME = 'keel.route.name';

/**
 * Tracing through `tracer`: each request gets a SERVER span named `<METHOD> <route pattern>`
 * (`<METHOD>` for a request no route matched), the child of an incoming W3C `traceparent`, in
 * whose context every step of the request runs; it ends when the answer closes, with status ERROR
 * and the exception recorded for a 5xx. Where an HTTP instrumentation already opened the request's
 * SERVER span, keel names that one instead of opening a second.
 *
 * @example
 * new Dispatcher({ ...parts, tracing: requestSpans(trace.getTracer('keel')) });
 */
export function requestSpans(tracer: Tracer): RequestTracing {
  // The spans that already belong to a request: an in-process request made while one is served
  // gets a span of its own, a child of that one.
  const claimed = new WeakSet<Span>();
  return {
    open(state, req, res) {
      const active = context.active();
      const found = trace.getSpan(active);
      const requestTrace =
        found !== undefined && isServerSpan(found) && !claimed.has(found)
          ? { span: found, context: active, isOwn: false, error: undefined }
          : startSpan(tracer, active, req);
      claimed.add(requestTrace.span);
      state.trace = requestTrace;
      const spanContext = requestTrace.span.spanContext();
      if (isSpanContextValid(spanContext)) {
        state.traceId = spanContext.traceId;
        state.spanId = spanContext.spanId;
      }
      // Before any other listener: an instrumentation's span must be named before it ends it.
      res.prependListener('close', () => closeSpan(state, req, res));
    },
    enter: (state, step, ...args) =>
      context.with((state.trace as RequestTrace).context, () => requestScope.run(state, step, ...args)),
    fail(error) {
      const requestTrace = requestScope.getStore()?.trace;
      if (requestTrace !== undefined) requestTrace.error = error;
    },
  };
}

function startSpan(tracer: Tracer, active: Context, req: IncomingMessage): RequestTrace {
  const parent = propagation.extract(active, req.headers);
  const method = req.method ?? 'GET';
  const attributes: Attributes = { [HTTP_REQUEST_METHOD]: method, [URL_PATH]: requestPath(req) };
  const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes }, parent);
  return { span, context: trace.setSpan(parent, span), isOwn: true, error: undefined };
}

function closeSpan(state: RequestState, req: IncomingMessage, res: ServerResponse): void {
  const { span, error, isOwn } = state.trace as RequestTrace;
  if (span.isRecording()) {
    // The method the request was routed by: a form's `_method` has replaced POST by then.
    const method = req.method ?? 'GET';
    const { route } = state;
    if (route === undefined) span.updateName(method);
    else {
      span.updateName(`${method} ${route.path}`);
      span.setAttributes({ [HTTP_ROUTE]: route.path, [KEEL_ROUTE_NAME]: route.name });
    }
    // A client that left before the headers went out got no status.
    if (res.headersSent) {
      span.setAttribute(HTTP_RESPONSE_STATUS_CODE, res.statusCode);
      if (res.statusCode >= 500) markFailed(span, error);
    }
  }
  if (isOwn) span.end();
}

function markFailed(span: Span, error: unknown): void {
  if (error !== undefined) span.recordException(asException(error));
  const message = error instanceof Error ? error.message : undefined;
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

// Anything may be thrown; the span takes an Error-like object or a string.
function asException(error: unknown): Exception {
  if (typeof error === 'object' && error !== null) return error as Exception;
  return String(error);
}

// The span API does not expose a span's kind; the SDK's spans carry it.
function isServerSpan(span: Span): boolean {
  return (span as { readonly kind?: unknown }).kind === SpanKind.SERVER;
}
