import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { RequestHandler } from 'express';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ApiResource,
  Controller,
  Get,
  Inject,
  Post,
  Injectable,
  LOGGER,
  currentRequest,
  type Application,
  type Context,
  type Logger,
} from 'keel';
import inject from 'light-my-request';
import { bootApp, listenerOf, moduleWith } from '../factories/app';
import { HOST } from '../factories/gates';
import { captureLog, type LogCapture } from '../factories/log';
import { registerTracingSdk, traceparent, type TracingSdk } from '../factories/tracing';

/** What an order lookup saw of its request, for the test to compare with the spans. */
interface Seen {
  readonly id: string;
  readonly traceId: string | undefined;
}

/** A service that opens a span of its own after an await, and logs through LOGGER, with no ctx. */
@Injectable()
class OrderLookup {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  async find(id: string): Promise<Seen> {
    await sleep(1);
    return trace.getTracer('orders').startActiveSpan('load order', async (span) => {
      this.logger.info({ orderId: id }, 'loading order');
      await sleep(1);
      span.end();
      return { id, traceId: currentRequest()?.traceId };
    });
  }
}

@ApiResource('orders', { only: ['show', 'store'] })
class OrderController {
  constructor(private readonly lookup: OrderLookup) {}

  show(ctx: Context): Promise<Seen> {
    return this.lookup.find(ctx.param('id'));
  }

  // The span the service opens after the body was read must still be the request's child.
  store(ctx: Context): Promise<Seen> {
    return this.lookup.find(ctx.form('id', ''));
  }
}

// Reads the raw body itself, as a webhook's signature check does: it resumes the request from the
// connection's events, outside the request's trace context, and keel must put the request back in it.
const readRawBody: RequestHandler = (req, _res, next) => {
  if (!req.is('text/plain')) return next();
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    (req as { rawBody?: string }).rawBody = body;
    next();
  });
};

@Controller('webhooks')
class WebhookController {
  constructor(private readonly lookup: OrderLookup) {}

  @Post()
  receive(ctx: Context): Promise<Seen> {
    return this.lookup.find((ctx.req as { rawBody?: string }).rawBody ?? '');
  }
}

@Controller('failing')
class FailingController {
  @Get()
  explode(): never {
    throw new Error('exploded');
  }
}

let sdk: TracingSdk;
let app: Application;
let log: LogCapture;
let url: string;

beforeAll(async () => {
  // As an application does: the SDK first, then createApplication.
  sdk = registerTracingSdk();
  log = captureLog();
  const controllers = [OrderController, WebhookController, FailingController];
  app = await bootApp(moduleWith({ controllers, providers: [OrderLookup] }), { logger: log.logger });
  app.use(readRawBody);
  // Asks the same application in-process, while this request is served.
  app.router.get('/relay', async () => (await inject(listenerOf(app), '/orders/12')).json());
  url = (await app.listen(0, HOST)).url;
});

afterAll(async () => {
  await app.close();
  await sdk.unregister();
});

beforeEach(() => sdk.reset());

function serverSpans(spans: ReadableSpan[]): ReadableSpan[] {
  return spans.filter((span) => span.kind === SpanKind.SERVER);
}

async function requestSpan(): Promise<ReadableSpan> {
  const [span, ...others] = serverSpans(
    await sdk.spansWhen('request span', (spans) => serverSpans(spans).length > 0),
  );
  expect(others).toEqual([]);
  return span as ReadableSpan;
}

test('a routed request gets one SERVER span named by its method and route pattern, with the HTTP attributes and the route name', async () => {
  const res = await fetch(`${url}/orders/7?token=secret`);
  expect(res.status).toBe(200);
  const span = await requestSpan();
  expect(span.name).toBe('GET /orders/:id');
  expect(span.attributes).toMatchObject({
    'http.request.method': 'GET',
    'http.route': '/orders/:id',
    'url.path': '/orders/7',
    'http.response.status_code': 200,
    'keel.route.name': 'orders.show',
  });
  expect(span.instrumentationScope.name).toBe('keel');
  expect(span.status.code).toBe(SpanStatusCode.UNSET);
});

test('a request no route matched gets a span named by its method alone, with no route', async () => {
  const res = await fetch(`${url}/nowhere/at/all`);
  expect(res.status).toBe(404);
  const span = await requestSpan();
  expect(span.name).toBe('GET');
  expect(span.attributes['http.response.status_code']).toBe(404);
  expect(span.attributes['url.path']).toBe('/nowhere/at/all');
  expect(span.attributes).not.toHaveProperty('http.route');
  expect(span.attributes).not.toHaveProperty('keel.route.name');
  expect(span.status.code).toBe(SpanStatusCode.UNSET);
});

test("a 5xx sets the span's status to ERROR and records the handler's exception", async () => {
  const res = await fetch(`${url}/failing`);
  expect(res.status).toBe(500);
  expect(await res.json()).toEqual({ error: 'internal server error' });
  const span = await requestSpan();
  expect(span.name).toBe('GET /failing');
  expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'exploded' });
  const exceptions = span.events.filter((event) => event.name === 'exception');
  expect(exceptions).toHaveLength(1);
  expect(exceptions[0]?.attributes).toMatchObject({
    'exception.type': 'Error',
    'exception.message': 'exploded',
  });
  expect(exceptions[0]?.attributes?.['exception.stacktrace']).toContain('explode');
});

test('an incoming traceparent makes the request span its child, in the same trace', async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parentId = '00f067aa0ba902b7';
  await fetch(`${url}/orders/8`, { headers: { traceparent: traceparent(traceId, parentId) } });
  const span = await requestSpan();
  expect(span.spanContext().traceId).toBe(traceId);
  expect(span.parentSpanContext).toMatchObject({ traceId, spanId: parentId, isRemote: true });
});

test('without a traceparent the request span starts a trace of its own', async () => {
  await fetch(`${url}/orders/9`);
  const span = await requestSpan();
  expect(span.parentSpanContext).toBeUndefined();
});

// The body's events come from the connection, a moment after the request arrived.
function postLate(path: string, type: string, body: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': type, 'content-length': body.length };
    const req = http.request(`${url}${path}`, { method: 'POST', headers }, (res) => {
      res.resume().on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.flushHeaders();
    setTimeout(() => req.end(body), 50);
  });
}

describe.each([
  ['GET /orders/:id', () => fetch(`${url}/orders/10`), 200],
  [
    'POST /orders, its form sent after its headers',
    () => postLate('/orders', 'application/x-www-form-urlencoded', 'id=10'),
    201,
  ],
  ['POST /webhooks, its body read by middleware', () => postLate('/webhooks', 'text/plain', '10'), 201],
] as const)('%s', (_name, send, status) => {
  test("a span a service opens after an await is the request span's child", async () => {
    const res = await send();
    expect(res.status).toBe(status);
    const spans = await sdk.spansWhen('both spans', (ended) => ended.length === 2);
    const request = spans.find((span) => span.kind === SpanKind.SERVER) as ReadableSpan;
    const child = spans.find((span) => span.name === 'load order') as ReadableSpan;
    expect(child.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(child.spanContext().traceId).toBe(request.spanContext().traceId);
  });
});

test("currentRequest(), the access line and a service's LOGGER line carry the request span's trace id", async () => {
  const res = await fetch(`${url}/orders/11`, { headers: { 'X-Request-Id': 'traced-11' } });
  const seen = (await res.json()) as Seen;
  const span = await requestSpan();
  const { traceId, spanId } = span.spanContext();
  expect(seen.traceId).toBe(traceId);
  const serviceLine = log
    .entries()
    .find((entry) => entry.requestId === 'traced-11' && entry.msg === 'loading order');
  // The line is logged inside the service's own span, but keel's fields name the request's span.
  expect(serviceLine).toMatchObject({ traceId, spanId });
  const accessLine = await log.next((entry) => entry.requestId === 'traced-11' && entry.msg === 'request', {
    what: 'the access line of traced-11',
  });
  expect(accessLine).toMatchObject({ traceId, route: '/orders/:id', status: 200 });
});

test("an in-process request made while a request is served gets a span of its own, that request's child", async () => {
  const res = await fetch(`${url}/relay`);
  expect(res.status).toBe(200);
  const spans = await sdk.spansWhen('three spans', (ended) => ended.length === 3);
  const outer = spans.find((span) => span.name === 'GET /relay') as ReadableSpan;
  const inner = spans.find((span) => span.name === 'GET /orders/:id') as ReadableSpan;
  expect(inner.kind).toBe(SpanKind.SERVER);
  expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
  expect(inner.attributes['url.path']).toBe('/orders/12');
});
