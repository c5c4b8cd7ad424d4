import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PostgresProxy } from '../../test/factories/postgres-proxy';
import { measureBlackholedReadiness, type BlackholedReadiness } from './measure/blackholed-readiness';
import { measureColdStarts, type ColdStarts } from './measure/cold-start';
import { profileKeel } from './measure/cpu-profile';
import { checkDatabase } from './measure/database-check';
import { measureConfigurationCost } from './measure/configuration-cost';
import type { VariantFigures } from './measure/keel-variants';
import { measureLargeTable, type LargeTableFigures } from './measure/large-table';
import { createOrdersTable } from './measure/orders-table';
import { PRODUCTION_ROUTES, ROUTES, VALIDATION_ROUTES, type BenchRoute } from './measure/routes';
import { measureSseFanOut, type FanOutFigures } from './measure/sse-fan-out';
import { measureTestDatabaseBoot } from './measure/test-database-boot';
import { measureThroughput, type RoundSample } from './measure/throughput';
import { checkBenchNode, describeBenchNode } from './processes/bench-node';
import { planCpuPinning } from './processes/cpu-pinning';
import {
  PRODUCTION_SERVERS,
  SERVERS,
  VALIDATION_SERVERS,
  ServerProcess,
  type ServerKind,
  type ServerLaunch,
} from './processes/server-process';
import { renderRatioChart } from './report/ratio-chart';
import {
  renderColdStartTable,
  renderConfigurationCostTable,
  renderLargeTable,
  renderLatencyRatioTable,
  renderMemoryTable,
  renderProfileTables,
  renderRatioTable,
  renderResultsMarkdown,
  renderTestDatabaseTable,
  renderThroughputTable,
} from './report/results-markdown';
import { renderFanOutTable } from './report/fan-out-table';
import { renderValidationRatioTable } from './report/validation-table';
import { formatNumber } from './report/statistics';
import { summarize, type BenchMeasurements, type BenchSummary } from './report/summary';
import {
  benchCommand,
  isCompleteRun,
  readBenchSettings,
  type BenchPart,
  type BenchSettings,
} from './settings';

// Boots after the first, which makes the template: enough for a stable median.
const TEST_DATABASE_BOOTS = 10;

const RESULTS_DIR = path.resolve(__dirname, '..', '..', '..', 'results');

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

interface Load {
  settings: BenchSettings;
  launch: ServerLaunch;
  proxy: PostgresProxy;
  loadCore: number | undefined;
}

/** Starts `kinds`, measures `routes` on them round after round, and stops them; `during` runs before they stop. */
async function measureServers(
  kinds: readonly ServerKind[],
  routes: readonly BenchRoute[],
  { settings, launch, proxy, loadCore }: Load,
  during?: (servers: ServerProcess[]) => Promise<void>,
): Promise<RoundSample[]> {
  const servers: ServerProcess[] = [];
  try {
    for (const kind of kinds) servers.push(await ServerProcess.start(kind, launch));
    if (routes.length > 0)
      log(`bench: warm-up, then ${settings.rounds} rounds of ${settings.roundSeconds} s per route`);
    const samples = await measureThroughput(servers, routes, proxy, settings, loadCore, (sample) =>
      log(
        `  ${sample.route.padEnd(20)} ${sample.generator.padEnd(10)} ${sample.server.padEnd(8)} ${formatNumber(sample.load.requestsPerSecond)} req/s`,
      ),
    );
    await during?.(servers);
    return samples;
  } finally {
    for (const server of servers) await server.stop();
  }
}

/** What each part measured; a part `BENCH_ONLY` left out keeps its empty value. */
async function measureParts(load: Load): Promise<Omit<BenchMeasurements, 'generators'>> {
  const { settings, launch, proxy, loadCore } = load;
  const has = (part: BenchPart): boolean => settings.parts.has(part);
  let coldStarts: ColdStarts = {};
  let blackholed: BlackholedReadiness[] = [];
  let samples: RoundSample[] = [];
  let productionSamples: RoundSample[] = [];
  let validationSamples: RoundSample[] = [];
  let largeTable: LargeTableFigures[] = [];
  let configurationCost: VariantFigures[] = [];

  if (has('cold-start')) {
    log(`bench: cold starts (${settings.coldStarts} per server)`);
    coldStarts = await measureColdStarts(launch, settings.coldStarts);
  }
  if (has('throughput') || has('blackhole')) {
    const routes = has('throughput') ? ROUTES : [];
    samples = await measureServers(SERVERS, routes, load, async (servers) => {
      if (!has('blackhole')) return;
      log('bench: readiness with the database blackholed');
      blackholed = await measureBlackholedReadiness(servers, proxy, settings, loadCore);
    });
  }
  if (has('production')) {
    log('bench: every peer in its production configuration (request log to a file, metrics)');
    productionSamples = await measureServers(PRODUCTION_SERVERS, PRODUCTION_ROUTES, load);
  }
  if (has('validation')) {
    log('bench: keel and Fastify validating the order through their usual validator and through zod');
    validationSamples = await measureServers(VALIDATION_SERVERS, VALIDATION_ROUTES, load);
  }
  if (has('large-table')) {
    log(`bench: keel with 10 and ${settings.largeRouteCount} routes`);
    largeTable = await measureLargeTable(launch, settings, loadCore);
  }
  if (has('configuration')) {
    log('bench: keel in a bare and in a production configuration');
    configurationCost = await measureConfigurationCost(launch, settings, loadCore);
  }
  let fanOut: FanOutFigures | undefined;
  if (has('sse-fan-out')) {
    log(`bench: keel's Broadcast fanning events out to ${settings.fanOutStreams} SSE streams`);
    fanOut = await measureSseFanOut(launch, settings);
  }
  let profile;
  if (has('profile')) {
    log('bench: keel under the CPU profiler');
    profile = await profileKeel(launch, settings, loadCore);
  }
  let testDatabase;
  if (has('test-database')) {
    log('bench: keel/testing, a database of its own per application');
    testDatabase = await measureTestDatabaseBoot(settings.databaseUrl, TEST_DATABASE_BOOTS);
  }
  return {
    samples,
    productionSamples,
    validationSamples,
    coldStarts,
    blackholed,
    largeTable,
    configurationCost,
    fanOut,
    profile,
    testDatabase,
  };
}

/** The tables printed on the terminal: those of the parts the run measured. */
function renderTerminalTables(summary: BenchSummary): string[] {
  const { generators, production } = summary;
  const tables = [
    renderRatioTable(summary.figures, generators),
    renderLatencyRatioTable(summary.figures, generators),
    renderMemoryTable(summary.memoryAfterLoadMb),
    renderRatioTable(production.figures, generators),
    renderLatencyRatioTable(production.figures, generators),
    renderMemoryTable(production.memoryAfterLoadMb),
    renderThroughputTable(summary.validation.figures),
    renderValidationRatioTable(summary),
    renderLatencyRatioTable(summary.validation.figures, generators),
    renderColdStartTable(summary),
    renderLargeTable(summary),
    renderConfigurationCostTable(summary),
    renderFanOutTable(summary),
    renderProfileTables(summary),
    renderTestDatabaseTable(summary),
  ];
  // A table of a part the run left out has a header and a rule, and no row.
  return tables.filter((table) => table.split('\n').length > 2);
}

async function main(): Promise<void> {
  const settings = readBenchSettings();
  checkBenchNode();
  const node = describeBenchNode();
  log(`bench: Node ${node}, runner, servers and load generators`);
  const startLoadAverage = os.loadavg()[0] ?? Number.NaN;
  const postgresVersion = await checkDatabase(settings.databaseUrl);
  const pinning = planCpuPinning();
  const ordersTable = await createOrdersTable(settings.databaseUrl);
  const proxy = await PostgresProxy.start(settings.databaseUrl);
  const launch = { databaseUrl: proxy.url, ordersTable: ordersTable.name, core: pinning.serverCore };
  log(`bench: ${pinning.description}; load by ${settings.generators.join(' and ')}`);
  if (!settings.generators.includes('wrk'))
    log(
      'bench: wrk is not installed (apt-get install wrk): autocannon alone, whose figures above ~35k req/s are floors',
    );

  try {
    const parts = await measureParts({ settings, launch, proxy, loadCore: pinning.loadCore });
    const summary = summarize({ generators: settings.generators, ...parts });
    const written: string[] = [];
    if (isCompleteRun(settings)) {
      const facts = {
        date: new Date().toISOString(),
        command: benchCommand(),
        node,
        // The runner is pinned by now, so its own affinity would count one core: count the machine's.
        cores: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? 'unknown CPU',
        memoryGigabytes: os.totalmem() / 2 ** 30,
        postgresVersion: postgresVersion.split(' on ')[0] ?? postgresVersion,
        pinning: pinning.description,
        loadAverage: { start: startLoadAverage, end: os.loadavg()[0] ?? Number.NaN },
        settings,
      };
      mkdirSync(RESULTS_DIR, { recursive: true });
      writeFileSync(path.join(RESULTS_DIR, 'latest.md'), renderResultsMarkdown(summary, facts));
      writeFileSync(path.join(RESULTS_DIR, 'ratios.svg'), renderRatioChart(summary));
      written.push(`written: ${path.join(RESULTS_DIR, 'latest.md')} and ratios.svg`);
    } else written.push(`BENCH_ONLY: a partial run on Node ${node}; nothing written`);
    process.stdout.write([...renderTerminalTables(summary), ...written, ''].join('\n\n'));
  } finally {
    await proxy.close();
    await ordersTable.drop();
  }
}

main().catch((error: unknown) => {
  log(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
