import {
  Controller,
  HealthModule,
  Injectable,
  Metrics,
  MetricsModule,
  Module,
  Post,
  type Application,
  type Context,
  type Counter,
} from 'keel';
import { createTestingApplication } from 'keel/testing';
import { bootApp } from '../factories/app';
import { heldOrderRoutes } from '../factories/order-routes';
import { HOST } from '../factories/gates';
import { captureLog, DEBUG_LEVEL, type LogCapture } from '../factories/log';
import { parseSamples, scrape, scrapeUntil, seriesOf, valueOf, type Sample } from '../factories/metrics';

jest.setTimeout(30_000);

@Injectable()
class OrderEvents {
  readonly #created: Counter<'channel'>;

  constructor(metrics: Metrics) {
    this.#created = metrics.counter({
      name: 'orders_created_total',
      help: 'Orders created, by channel',
      labelNames: ['channel'],
    });
  }

  created(channel: string): void {
    this.#created.inc({ channel });
  }
}

const { OrderController, held, entered } = heldOrderRoutes();

@Controller('orders')
class OrderStoreController {
  constructor(private readonly events: OrderEvents) {}

  @Post()
  store(ctx: Context): void {
    this.events.created('web');
    ctx.json(201, { id: 1 });
  }
}

@Module({
  imports: [MetricsModule.forRoot(), HealthModule.forRoot()],
  controllers: [OrderController, OrderStoreController],
  providers: [OrderEvents],
})
class AppModule {}

let app: Application;
let url: string;
let log: LogCapture;

beforeAll(async () => {
  log = captureLog('debug');
  app = await bootApp(AppModule, { logger: log.logger, handleSignals: false });
  url = (await app.listen(0, HOST)).url;
});

afterAll(() => app.close());

const requests = (samples: readonly Sample[], labels: Record<string, string>): number =>
  valueOf(samples, 'http_requests_total', labels) ?? 0;

test('GET /metrics answers the text format with Node’s own series', async () => {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  const text = await res.text();
  for (const name of [
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_eventloop_lag_seconds',
    'nodejs_heap_size_used_bytes',
  ]) {
    expect(text).toContain(`# TYPE ${name} `);
  }
  expect(text).toContain('# TYPE http_requests_total counter');
  expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  expect(text).toContain('# TYPE http_requests_in_flight gauge');
});

test('requests are counted and timed by method, route pattern and status', async () => {
  const before = await scrape(`${url}/metrics`);
  const show = { method: 'GET', route: '/orders/:id', status: '200' };
  const store = { method: 'POST', route: '/orders', status: '201' };
  const broken = { method: 'GET', route: '/orders/broken/:id', status: '503' };
  const unrouted = { method: 'GET', route: '', status: '404' };
  for (const id of ['1', '2', '3']) expect((await fetch(`${url}/orders/${id}`)).status).toBe(200);
  expect((await fetch(`${url}/orders`, { method: 'POST' })).status).toBe(201);
  expect((await fetch(`${url}/orders/broken/1`)).status).toBe(503);
  expect((await fetch(`${url}/no/such/path`)).status).toBe(404);

  const after = await scrapeUntil(
    `${url}/metrics`,
    'the unrouted request counted',
    (samples) => requests(samples, unrouted) > requests(before, unrouted),
  );
  expect(requests(after, show) - requests(before, show)).toBe(3);
  expect(requests(after, store) - requests(before, store)).toBe(1);
  expect(requests(after, broken) - requests(before, broken)).toBe(1);
  expect(requests(after, unrouted) - requests(before, unrouted)).toBe(1);
  // No raw path is a label: the series carry the pattern only.
  expect(after.some((sample) => sample.labels.route === '/orders/1')).toBe(false);
  // The histogram counts what the counter counts, and puts each request in its buckets.
  expect(valueOf(after, 'http_request_duration_seconds_count', show)).toBe(requests(after, show));
  expect(valueOf(after, 'http_request_duration_seconds_bucket', { ...show, le: '+Inf' })).toBe(
    requests(after, show),
  );
  expect(valueOf(after, 'http_request_duration_seconds_sum', show)).toBeGreaterThan(0);
});

test('a request held open is in flight until it is answered', async () => {
  // The scrape itself is in flight while it is answered.
  const idle = valueOf(await scrape(`${url}/metrics`), 'http_requests_in_flight');
  const answered = fetch(`${url}/orders/slow/1`);
  await entered.opened;
  const whileHeld = valueOf(await scrape(`${url}/metrics`), 'http_requests_in_flight');
  expect(whileHeld).toBe((idle ?? 0) + 1);
  held.open();
  expect((await answered).status).toBe(200);
  const after = await scrapeUntil(
    `${url}/metrics`,
    'the answered request out of flight',
    (samples) => valueOf(samples, 'http_requests_in_flight') === idle,
  );
  expect(valueOf(after, 'http_requests_in_flight')).toBe(idle);
});

test('10,000 distinct unknown paths add no series', async () => {
  const unrouted = { method: 'GET', route: '', status: '404' };
  await fetch(`${url}/unknown/warm-up`);
  const httpSeries = (samples: readonly Sample[]) =>
    seriesOf(samples.filter((sample) => sample.name.startsWith('http_')));
  const before = await scrapeUntil(
    `${url}/metrics`,
    'an unrouted request counted',
    (samples) => requests(samples, unrouted) > 0,
  );
  const paths = Array.from(
    { length: 10_000 },
    (_, index) => `/unknown/${index}/${Math.random().toString(36).slice(2)}`,
  );
  for (let start = 0; start < paths.length; start += 50) {
    const statuses = await Promise.all(
      paths.slice(start, start + 50).map(async (path) => (await fetch(`${url}${path}`)).status),
    );
    expect(new Set(statuses)).toEqual(new Set([404]));
  }
  const target = requests(before, unrouted) + paths.length;
  const after = await scrapeUntil(
    `${url}/metrics`,
    'every unrouted request counted',
    (samples) => requests(samples, unrouted) >= target,
  );
  expect(requests(after, unrouted)).toBe(target);
  expect(httpSeries(after)).toEqual(httpSeries(before));
});

test('the application’s own series, made through the Metrics injectable, are in the same scrape', async () => {
  await fetch(`${url}/orders`, { method: 'POST' });
  await fetch(`${url}/orders`, { method: 'POST' });
  const samples = await scrape(`${url}/metrics`);
  expect(valueOf(samples, 'orders_created_total', { channel: 'web' })).toBeGreaterThanOrEqual(2);
});

test('the metrics route is a probe: its access lines are at debug', async () => {
  await fetch(`${url}/metrics`, { headers: { 'X-Request-Id': 'scrape-1' } });
  const line = await log.next((entry) => entry.msg === 'request' && entry.requestId === 'scrape-1', {
    what: 'the access line of the scrape',
  });
  expect(line).toMatchObject({ level: DEBUG_LEVEL, route: '/metrics', status: 200 });
});

test('two applications in one process keep their series apart', async () => {
  const other = await bootApp(AppModule, { handleSignals: false });
  try {
    const otherUrl = (await other.listen(0, HOST)).url;
    for (const id of ['a', 'b']) await fetch(`${otherUrl}/orders/${id}`);
    const show = { method: 'GET', route: '/orders/:id', status: '200' };
    const samples = await scrapeUntil(
      `${otherUrl}/metrics`,
      'both requests counted',
      (found) => requests(found, show) === 2,
    );
    expect(requests(samples, show)).toBe(2);
    expect(requests(await scrape(`${url}/metrics`), show)).toBeGreaterThanOrEqual(3);
  } finally {
    await other.close();
  }
});

// Node drops a HEAD answer's body whatever the handler writes: what the route owes is its headers.
test('HEAD /metrics answers the headers of the text', async () => {
  const res = await fetch(`${url}/metrics`, { method: 'HEAD' });
  expect({
    status: res.status,
    type: res.headers.get('content-type'),
    length: Number(res.headers.get('content-length')) > 0,
  }).toEqual({ status: 200, type: 'text/plain; version=0.0.4; charset=utf-8', length: true });
});

test('an overloaded application still answers scrapes while it sheds ordinary requests', async () => {
  const overloaded = await bootApp(AppModule, { handleSignals: false, loadShedding: { maxRssBytes: 1 } });
  try {
    const overloadedUrl = (await overloaded.listen(0, HOST)).url;
    expect((await fetch(`${overloadedUrl}/orders/1`)).status).toBe(503);
    const samples = await scrape(`${overloadedUrl}/metrics`);
    expect(requests(samples, { method: 'GET', route: '', status: '503' })).toBe(1);
  } finally {
    await overloaded.close();
  }
});

test('in-process requests (app.inject) are counted as requests over a socket are', async () => {
  const testing = await createTestingApplication(AppModule).boot({ logger: false });
  try {
    await testing.inject({ method: 'GET', url: '/orders/9' });
    const scraped = await testing.inject({ method: 'GET', url: '/metrics' });
    const samples = parseSamples(scraped.body);
    expect(requests(samples, { method: 'GET', route: '/orders/:id', status: '200' })).toBe(1);
  } finally {
    await testing.close();
  }
});

describe('without MetricsModule', () => {
  @Module({
    controllers: [OrderController],
    providers: [{ provide: OrderEvents, useValue: { created: () => undefined } }],
  })
  class PlainModule {}

  test('there is no /metrics, and requests are served as before', async () => {
    const plain = await bootApp(PlainModule, { handleSignals: false });
    try {
      const plainUrl = (await plain.listen(0, HOST)).url;
      expect((await fetch(`${plainUrl}/metrics`)).status).toBe(404);
      expect((await fetch(`${plainUrl}/orders/1`)).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

describe('options', () => {
  test.each([
    [{ path: 7 }, "the option metrics path is 7: expected a plain path such as '/metrics'."],
    [{ path: '/metrics/:id' }, 'the option metrics path is "/metrics/:id"'],
    [{ port: 70000 }, 'the option metrics port is 70000: expected a port number from 0 to 65535'],
    [{ port: '9464' }, 'the option metrics port is "9464"'],
    [{ port: 1.5 }, 'the option metrics port is 1.5'],
  ])('MetricsModule.forRoot(%j) is a boot error naming the option', (options, message) => {
    expect(() => MetricsModule.forRoot(options as never)).toThrow(message);
  });

  test('a path of its own serves the metrics there', async () => {
    @Module({ imports: [MetricsModule.forRoot({ path: 'internal/prometheus' })] })
    class CustomPath {}
    const custom = await bootApp(CustomPath, { handleSignals: false });
    try {
      const customUrl = (await custom.listen(0, HOST)).url;
      expect((await fetch(`${customUrl}/metrics`)).status).toBe(404);
      expect(
        parseSamples(await (await fetch(`${customUrl}/internal/prometheus`)).text()).length,
      ).toBeGreaterThan(0);
    } finally {
      await custom.close();
    }
  });
});
