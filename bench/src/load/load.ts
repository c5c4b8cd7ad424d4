import autocannon from 'autocannon';
import type { LoadRequest, LoadResult } from './load-request';

// autocannon runs in a process of its own so that it never shares an event loop (or a core, where
// the machine has two) with the server it measures; its own CPU time tells whether it kept up.
async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '') as LoadRequest;
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: request.url,
    method: request.method,
    body: request.body,
    headers: {
      ...request.headers,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    connections: request.connections,
    duration: request.durationSeconds,
  });
  const cpu = process.cpuUsage(cpuBefore);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = stats.count ?? 0;
  const report: LoadResult = {
    requestsPerSecond: result.requests.total / result.duration,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationSeconds: result.duration,
    generatorCpuPercent: ((cpu.user + cpu.system) / 1e6 / result.duration) * 100,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

void main();
