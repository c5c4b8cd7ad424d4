import http from 'node:http';
import { Controller, Get, MetricsModule, Module, type Application } from 'keel';
import { MetricsListener } from '../../src/observability/metrics-listener';
import { bootApp } from '../factories/app';
import { HOST } from '../factories/gates';
import { captureLog } from '../factories/log';
import { scrape, scrapeUntil, valueOf } from '../factories/metrics';

jest.setTimeout(30_000);

@Controller('orders')
class OrderController {
  @Get(':id')
  show() {
    return { ok: true };
  }
}

function appModule(options: { port: number; path?: string }) {
  @Module({ imports: [MetricsModule.forRoot(options)], controllers: [OrderController] })
  class AppModule {}
  return AppModule;
}

const opened: Application[] = [];
afterEach(() => Promise.all(opened.splice(0).map((app) => app.close())));

async function start(options: { port: number; path?: string }) {
  const app = await bootApp(appModule(options), { handleSignals: false });
  opened.push(app);
  const { url } = await app.listen(0, HOST);
  const metricsUrl = app.get(MetricsListener).url;
  if (metricsUrl === undefined) throw new Error('the metrics listener did not open');
  return { app, url, metricsUrl };
}

test('with a port, the metrics are served there and not on the application’s port', async () => {
  const { url, metricsUrl } = await start({ port: 0 });
  expect(new URL(metricsUrl).hostname).toBe(HOST);
  expect(new URL(metricsUrl).port).not.toBe(new URL(url).port);
  expect(new URL(metricsUrl).pathname).toBe('/metrics');
  expect((await fetch(`${url}/metrics`)).status).toBe(404);

  await fetch(`${url}/orders/1`);
  const show = { method: 'GET', route: '/orders/:id', status: '200' };
  const samples = await scrapeUntil(
    metricsUrl,
    'the request counted',
    (found) => valueOf(found, 'http_requests_total', show) === 1,
  );
  expect(valueOf(samples, 'http_requests_total', show)).toBe(1);
  // Scrapes on the metrics' own port are no requests of the application.
  await scrape(metricsUrl);
  expect(valueOf(await scrape(metricsUrl), 'http_requests_total', { route: '/metrics' })).toBeUndefined();
});

test('the metrics port answers its path only: 404 elsewhere, 405 for another method', async () => {
  const { metricsUrl } = await start({ port: 0, path: '/internal/metrics' });
  const origin = new URL(metricsUrl).origin;
  const elsewhere = await fetch(`${origin}/orders/1`);
  expect(elsewhere.status).toBe(404);
  expect(await elsewhere.json()).toEqual({ error: 'no route for GET /orders/1' });
  // The responder's own headers, as on every other error answer.
  expect(elsewhere.headers.get('x-content-type-options')).toBe('nosniff');
  expect(elsewhere.headers.get('cache-control')).toBe('no-store');
  const posted = await fetch(metricsUrl, { method: 'POST' });
  expect(posted.status).toBe(405);
  expect(posted.headers.get('allow')).toBe('GET, HEAD');
  expect(posted.headers.get('x-content-type-options')).toBe('nosniff');
  expect(await posted.json()).toEqual({ error: 'method POST not allowed on /internal/metrics' });
  expect((await fetch(`${metricsUrl}?name[]=x`)).status).toBe(200);
});

test('the metrics port opens with listen() and closes with close(), kept-alive scrapers included', async () => {
  const log = captureLog();
  const app = await bootApp(appModule({ port: 0 }), { handleSignals: false, logger: log.logger });
  // Booted but not listening: nothing is open yet.
  expect(app.get(MetricsListener).url).toBeUndefined();
  await app.listen(0, HOST);
  const metricsUrl = app.get(MetricsListener).url ?? '';
  expect(
    await log.next((entry) => entry.msg === 'serving metrics', { what: 'the serving metrics line' }),
  ).toMatchObject({ url: metricsUrl });
  // A scraper that keeps its connection open, as Prometheus does.
  const agent = new http.Agent({ keepAlive: true });
  await new Promise<void>((resolve, reject) => {
    http.get(metricsUrl, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
  });
  await app.close();
  agent.destroy();
  await expect(fetch(metricsUrl)).rejects.toThrow();
});

test('a metrics port already in use fails listen() with a message naming the option, and frees the application’s port', async () => {
  const taken = http.createServer();
  await new Promise<void>((resolve) => taken.listen(0, HOST, resolve));
  const { port } = taken.address() as { port: number };
  try {
    const app = await bootApp(appModule({ port }), { handleSignals: false });
    opened.push(app);
    await expect(app.listen(0, HOST)).rejects.toThrow(
      `E_METRICS_PORT_UNAVAILABLE: MetricsModule could not listen on port ${port} of ${HOST}: listen EADDRINUSE`,
    );
    // The application did not stay half-listening: listen() may be called again.
    await new Promise((resolve) => taken.close(resolve));
    const { url } = await app.listen(0, HOST);
    expect((await fetch(`${url}/orders/1`)).status).toBe(200);
  } finally {
    taken.close();
  }
});
