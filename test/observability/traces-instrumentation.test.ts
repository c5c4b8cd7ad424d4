import path from 'node:path';
import { killRunningApps, startChild, type ChildApp, type OutputLine } from '../factories/child-app';
import { traceparent } from '../factories/tracing';

// The HTTP instrumentation patches node:http as it is required, which Jest's module loader does not
// go through: the application runs as a user runs it, in a process of its own started with
// `node --import` of the SDK and the instrumentation.
const APPS = path.join(__dirname, '..', 'fixtures', 'apps');

/** A span as the fixture prints it once ended. */
interface PrintedSpan {
  readonly name: string;
  readonly kind: number;
  readonly scope: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly attributes: Record<string, unknown>;
  readonly status: { readonly code: number };
}

const SERVER = 1;
const INSTRUMENTATION_HTTP = '@opentelemetry/instrumentation-http';

let app: ChildApp;

beforeAll(async () => {
  app = await startChild({
    args: ['--import', path.join(APPS, 'tracing-setup.mjs'), path.join(APPS, 'traced-app.mjs')],
    urlFrom: (lines) => {
      const port = lines.find((line) => 'port' in line)?.port as number | undefined;
      return port === undefined ? undefined : `http://127.0.0.1:${port}`;
    },
  });
});

afterAll(killRunningApps);

function spansOf(lines: OutputLine[], traceId: string): PrintedSpan[] {
  return lines
    .filter((line): line is { span: PrintedSpan } => 'span' in line)
    .map((line) => line.span)
    .filter((span) => span.traceId === traceId);
}

function isAccessLineOf(path: string): (line: OutputLine) => boolean {
  return (line) => line.msg === 'request' && line.path === path;
}

test("keel names the instrumentation's SERVER span and sets the route on it, rather than making a second", async () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const parentId = 'b7ad6b7169203331';
  const res = await fetch(`${app.url}/orders/7`, {
    headers: { traceparent: traceparent(traceId, parentId) },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { traceId?: string };
  await app.waitFor(
    'both spans and the access line',
    (lines) => spansOf(lines, traceId).length === 2 && lines.some(isAccessLineOf('/orders/7')),
  );
  const spans = spansOf(app.lines(), traceId);
  const servers = spans.filter((span) => span.kind === SERVER);
  expect(servers).toHaveLength(1);
  const [server] = servers as [PrintedSpan];
  expect(server).toMatchObject({
    name: 'GET /orders/:id',
    scope: INSTRUMENTATION_HTTP,
    parentSpanId: parentId,
    attributes: expect.objectContaining({
      'http.route': '/orders/:id',
      'keel.route.name': 'orders.show',
      'http.response.status_code': 200,
    }) as unknown,
  });
  const handlerSpan = spans.find((span) => span.name === 'load order');
  expect(handlerSpan?.parentSpanId).toBe(server.spanId);
  expect(body.traceId).toBe(traceId);
  const accessLine = app.lines().find(isAccessLineOf('/orders/7'));
  expect(accessLine?.traceId).toBe(traceId);
});

test("a request no route matched keeps the instrumentation's span, named by its method alone", async () => {
  const traceId = '5b8aa5a2d2c872e8321cf37308d69df2';
  const res = await fetch(`${app.url}/nowhere`, {
    headers: { traceparent: traceparent(traceId, '051581bf3cb55c13') },
  });
  expect(res.status).toBe(404);
  await app.waitFor('the request span', (lines) => spansOf(lines, traceId).length > 0);
  const spans = spansOf(app.lines(), traceId);
  expect(spans).toHaveLength(1);
  expect(spans[0]).toMatchObject({ name: 'GET', kind: SERVER, scope: INSTRUMENTATION_HTTP });
  expect(spans[0]?.attributes).not.toHaveProperty('http.route');
});
