import { ROUTES, READINESS_ROUTE } from '../measure/routes';
import type { BenchSettings } from '../settings';
import { renderTable } from './markdown-table';
import { formatNumber, ratio } from './statistics';
import { throughputRatio, type BenchSummary } from './summary';

/** Where and how a run happened, for the report's header. */
export interface RunFacts {
  date: string;
  command: string;
  nodeVersion: string;
  cores: number;
  cpuModel: string;
  memoryGigabytes: number;
  postgresVersion: string;
  pinning: string;
  /** The machine's 1-minute load average when the run started and when it ended. */
  loadAverage: { start: number; end: number };
  settings: BenchSettings;
}

const SERVER_LABELS: Record<string, string> = { keel: 'keel', express: 'Express', nest: 'NestJS' };
const label = (server: string): string => SERVER_LABELS[server] ?? server;

/** The per-route tables: figures, then the throughput ratios. */
export function renderThroughputTables(summary: BenchSummary): string {
  const figures = renderTable(
    [
      'route',
      'server',
      'req/s',
      'rounds min–max',
      'p50 ms',
      'p99 ms',
      'errors',
      'RSS MB',
      'vs Express',
      'vs NestJS',
    ],
    summary.figures.map((figure) => [
      figure.route,
      label(figure.server),
      formatNumber(figure.requestsPerSecond),
      figure.requestsPerSecondRange.map((value) => formatNumber(value)).join('–'),
      formatNumber(figure.latencyP50Ms, 1),
      formatNumber(figure.latencyP99Ms, 1),
      String(figure.errors),
      formatNumber(figure.rssMegabytes, 1),
      formatNumber(throughputRatio(summary, figure.route, figure.server, 'express'), 2),
      formatNumber(throughputRatio(summary, figure.route, figure.server, 'nest'), 2),
    ]),
  );
  const ratios = renderTable(
    ['route', 'keel / Express', 'keel / NestJS', 'NestJS / Express'],
    ROUTES.map((route) => [
      route.name,
      formatNumber(throughputRatio(summary, route.name, 'keel', 'express'), 2),
      formatNumber(throughputRatio(summary, route.name, 'keel', 'nest'), 2),
      formatNumber(throughputRatio(summary, route.name, 'nest', 'express'), 2),
    ]),
  );
  return `${figures}\n\n${ratios}`;
}

/** Cold start medians and their ratios. */
export function renderColdStartTable(summary: BenchSummary): string {
  const { coldStartMs } = summary;
  return renderTable(
    ['server', 'median ms', 'vs Express', 'keel / this'],
    Object.entries(coldStartMs).map(([server, ms]) => [
      label(server),
      formatNumber(ms),
      formatNumber(ratio(ms, coldStartMs.express ?? Number.NaN), 2),
      formatNumber(ratio(coldStartMs.keel ?? Number.NaN, ms), 2),
    ]),
  );
}

/** What the database received per second while each server's readiness was under load. */
export function renderPingTable(summary: BenchSummary): string {
  const readiness = summary.figures.filter((figure) => figure.route === READINESS_ROUTE.name);
  return renderTable(
    ['server', 'readiness req/s', 'SELECT 1 per second', 'SELECT 1 per request'],
    readiness.map((figure) => [
      label(figure.server),
      formatNumber(figure.requestsPerSecond),
      formatNumber(figure.pingsPerSecond),
      formatNumber(ratio(figure.pingsPerSecond, figure.requestsPerSecond), 3),
    ]),
  );
}

/** Readiness latency with the database blackholed. */
export function renderBlackholedTable(summary: BenchSummary): string {
  return renderTable(
    ['server', 'answers', '503s', 'p50 ms', 'p99 ms', 'no answer', 'ready again after'],
    summary.blackholed.map(({ server, load, hasRecovered }) => [
      label(server),
      String(Object.values(load.statusCodes).reduce((sum, count) => sum + count, 0)),
      String(load.statusCodes['503'] ?? 0),
      formatNumber(load.latencyP50Ms, 1),
      formatNumber(load.latencyP99Ms, 1),
      String(load.errors + load.timeouts),
      hasRecovered ? 'yes' : 'no (30 s)',
    ]),
  );
}

/** The whole report, as written to `bench/results/latest.md`. */
export function renderResultsMarkdown(summary: BenchSummary, facts: RunFacts): string {
  const { settings } = facts;
  return `# Benchmark results

keel against raw Express 5 and NestJS on \`@nestjs/platform-express\`, the same four routes in each
(\`bench/src/servers/\`). Produced by \`bench/src/run.ts\`; every figure below is from one run.

- date: ${facts.date}
- command: \`${facts.command}\`
- machine: ${facts.cores} cores (${facts.cpuModel}), ${formatNumber(facts.memoryGigabytes, 1)} GB RAM, Node ${facts.nodeVersion}
- database: ${facts.postgresVersion}, reached by every server through a counting proxy in the runner
- pinning: ${facts.pinning}
- load average (1 min) at start / end: ${formatNumber(facts.loadAverage.start, 2)} / ${formatNumber(facts.loadAverage.end, 2)}${Math.max(facts.loadAverage.start, facts.loadAverage.end) > facts.cores ? ' (more than the cores: other work shared the machine, and the rounds vary more)' : ''}
- load: autocannon in its own process, ${settings.connections} connections; each server warmed ${settings.warmupSeconds} s per route, then ${settings.rounds} rounds of ${settings.roundSeconds} s per route, interleaved server by server${settings.isQuick ? '\n- **quick mode: too short to publish**' : ''}

## Throughput and latency

Medians over the rounds; errors are requests with no answer or an unexpected status, summed over
the rounds; RSS is read from \`/proc\` after each round.

${renderThroughputTables(summary)}

![Throughput relative to raw Express](ratios.svg)

## Cold start

Spawn to the first 200 on \`GET /health\`, median of ${settings.coldStarts}. Express and NestJS connect to
the database before they listen; keel connects in the background after boot.

${renderColdStartTable(summary)}

## Readiness: what the database receives

\`SELECT 1\` counted at the proxy while \`${READINESS_ROUTE.name}\` was under load. keel shares one
in-flight ping between concurrent probes; Express and NestJS (terminus) ping once per request.

${renderPingTable(summary)}

## Readiness while the database is blackholed

The proxy accepts connections and holds every byte, for ${settings.blackholeSeconds} s per server under the same load. Timeouts:
keel 500 ms (its default), NestJS terminus 1000 ms (its default), Express 1000 ms (written into
its handler: with none, a hung database answers nothing at all).

${renderBlackholedTable(summary)}
`;
}
