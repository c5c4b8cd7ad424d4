import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { logged } from '../factories/child-app';
import { scrape, scrapeUntil, valueOf } from '../factories/metrics';
import { startSample, waitUntilReady, type RunningSample } from '../factories/sample';
import { postgresUrl } from '../factories/test-databases';

// The sample serves its Prometheus metrics on a port of its own (METRICS_PORT, 9464 in production;
// 0 here, a free one), which its pod annotations name, and not on its public port.
let sample: RunningSample;
let metricsUrl: string;

beforeAll(async () => {
  sample = await startSample({ scratchOn: postgresUrl() });
  await waitUntilReady(sample.url);
  metricsUrl = String(logged(sample.lines(), 'serving metrics')[0]?.url);
}, 120_000);

afterAll(() => sample.stop(), 30_000);

test('the metrics are on their own port, at /metrics, and not on the public one', async () => {
  const { hostname, port, pathname } = new URL(metricsUrl);
  expect(pathname).toBe('/metrics');
  expect(port).not.toBe(new URL(sample.url).port);
  expect(hostname).toBe(new URL(sample.url).hostname);
  expect((await fetch(`${sample.url}/metrics`)).status).toBe(404);
});

test('a scrape shows the requests by route, the database ready, and its pool', async () => {
  expect((await fetch(`${sample.url}/api/orders`)).status).toBe(200);
  const index = { method: 'GET', route: '/api/orders', status: '200' };
  const samples = await scrapeUntil(
    metricsUrl,
    'the request counted',
    (found) => valueOf(found, 'http_requests_total', index) === 1,
  );
  expect(valueOf(samples, 'http_requests_total', index)).toBe(1);
  expect(valueOf(samples, 'keel_readiness', { check: 'db' })).toBe(1);
  expect(valueOf(samples, 'keel_database_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
  expect(valueOf(await scrape(metricsUrl), 'process_resident_memory_bytes')).toBeGreaterThan(0);
});
