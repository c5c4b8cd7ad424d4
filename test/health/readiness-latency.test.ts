import http from 'node:http';
import { probe, type Probe } from '../factories/health';
import { waitForStatus } from '../factories/http-status';
import { PostgresProxy } from '../factories/postgres-proxy';
import { postgresUrl } from '../factories/test-databases';
import { killRunningApps, startApp } from '../factories/child-app';

// A real process with a real database connection; its probes are timed from this process, so the
// server's event loop carries only the server's work.
jest.setTimeout(30_000);

let proxy: PostgresProxy | undefined;
afterEach(async () => {
  killRunningApps();
  await proxy?.close();
});

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

/** The median and 99th percentile of the probes' latencies, in whole milliseconds. */
function latencySummary(probes: readonly Probe[]): { p50: number; p99: number } {
  const latencies = probes.map((answer) => answer.elapsedMs);
  return { p50: Math.round(percentile(latencies, 0.5)), p99: Math.round(percentile(latencies, 0.99)) };
}

test('readiness of a running service under a hang: 503 within the 1 s an orchestrator allows a probe, one ping for 100 probes', async () => {
  proxy = await PostgresProxy.start(postgresUrl());
  const app = await startApp({ DATABASE_URL: proxy.url }, 'health-app.mjs');
  const ready = `${app.url}/health/ready`;
  await waitForStatus(ready, 200, 10_000);
  // Connections opened beforehand, so that latencies are the probes', not TCP set-up's.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
  await Promise.all(Array.from({ length: 100 }, () => probe(`${app.url}/health`, agent)));

  const healthy: Probe[] = [];
  for (let index = 0; index < 300; index++) healthy.push(await probe(ready, agent));
  await proxy.setMode('blackhole');
  const rounds: Probe[][] = [];
  for (let round = 0; round < 3; round++) {
    rounds.push(await Promise.all(Array.from({ length: 100 }, () => probe(ready, agent))));
  }
  agent.destroy();
  const hung = rounds.flat();

  const latencies = { healthy: latencySummary(healthy), hung: latencySummary(hung) };
  // The bound is the requirement, not a speed claim: an orchestrator gives a probe 1 s by default, so
  // a 503 after the 500 ms timeout must still arrive within it. These machines are noisy (two cores
  // shared with the rest of the suite): it holds for the median round's p99, and every figure is
  // printed. The benchmark (npm run bench) measures the latency itself.
  const medianRoundP99 = percentile(
    rounds.map((round) => latencySummary(round).p99),
    0.5,
  );
  console.info(
    `readiness latency (ms), 300 sequential healthy probes and 3 floods of 100 during a hang: ${JSON.stringify(latencies)}; ` +
      `p99 of each round: ${rounds.map((round) => latencySummary(round).p99).join(', ')}; ` +
      `pings the database received during the hang: ${proxy.heldQueries}`,
  );
  expect(healthy.every((answer) => answer.status === 200)).toBe(true);
  expect(hung.map((answer) => answer.json)).toEqual(
    hung.map(() => ({ status: 'error', db: 'timeout after 500 ms' })),
  );
  expect(proxy.heldQueries).toBe(1);
  expect(medianRoundP99).toBeLessThan(1000);
});
