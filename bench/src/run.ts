import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PostgresProxy } from '../../test/factories/postgres-proxy';
import { measureBlackholedReadiness } from './measure/blackholed-readiness';
import { measureColdStarts } from './measure/cold-start';
import { profileKeel } from './measure/cpu-profile';
import { checkDatabase } from './measure/database-check';
import { measureConfigurationCost } from './measure/configuration-cost';
import { measureLargeTable } from './measure/large-table';
import { measureThroughput } from './measure/throughput';
import { planCpuPinning } from './processes/cpu-pinning';
import { SERVERS, ServerProcess } from './processes/server-process';
import { renderRatioChart } from './report/ratio-chart';
import {
  renderColdStartTable,
  renderConfigurationCostTable,
  renderLargeTable,
  renderMemoryTable,
  renderProfileTables,
  renderRatioTable,
  renderResultsMarkdown,
} from './report/results-markdown';
import { formatNumber } from './report/statistics';
import { summarize } from './report/summary';
import { benchCommand, readBenchSettings } from './settings';

const RESULTS_DIR = path.resolve(__dirname, '..', '..', '..', 'results');

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

async function main(): Promise<void> {
  const settings = readBenchSettings();
  const startLoadAverage = os.loadavg()[0] ?? Number.NaN;
  const postgresVersion = await checkDatabase(settings.databaseUrl);
  const pinning = planCpuPinning();
  const proxy = await PostgresProxy.start(settings.databaseUrl);
  const launch = { databaseUrl: proxy.url, core: pinning.serverCore };
  log(`bench: ${pinning.description}; load by ${settings.generators.join(' and ')}`);
  if (!settings.generators.includes('wrk'))
    log(
      'bench: wrk is not installed (apt-get install wrk): autocannon alone, whose figures above ~35k req/s are floors',
    );

  log(`bench: cold starts (${settings.coldStarts} per server)`);
  const coldStarts = await measureColdStarts(launch, settings.coldStarts);

  const servers: ServerProcess[] = [];
  try {
    for (const kind of SERVERS) servers.push(await ServerProcess.start(kind, launch));
    log(`bench: warm-up, then ${settings.rounds} rounds of ${settings.roundSeconds} s per route`);
    const samples = await measureThroughput(servers, proxy, settings, pinning.loadCore, (sample) =>
      log(
        `  ${sample.route.padEnd(18)} ${sample.generator.padEnd(10)} ${sample.server.padEnd(8)} ${formatNumber(sample.load.requestsPerSecond)} req/s`,
      ),
    );
    log('bench: readiness with the database blackholed');
    const blackholed = await measureBlackholedReadiness(servers, proxy, settings, pinning.loadCore);
    for (const server of servers.splice(0)) await server.stop();

    log(`bench: keel with 10 and ${settings.largeRouteCount} routes`);
    const largeTable = await measureLargeTable(launch, settings, pinning.loadCore);
    log('bench: keel in a bare and in a production configuration');
    const configurationCost = await measureConfigurationCost(launch, settings, pinning.loadCore);
    log('bench: keel under the CPU profiler');
    const profile = await profileKeel(launch, settings, pinning.loadCore);

    const summary = summarize({
      generators: settings.generators,
      samples,
      coldStarts,
      blackholed,
      largeTable,
      configurationCost,
      profile,
    });
    const facts = {
      date: new Date().toISOString(),
      command: benchCommand(),
      nodeVersion: process.version,
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

    process.stdout.write(
      [
        renderRatioTable(summary),
        renderMemoryTable(summary),
        renderColdStartTable(summary),
        renderLargeTable(summary),
        renderConfigurationCostTable(summary),
        renderProfileTables(summary),
        `written: ${path.join(RESULTS_DIR, 'latest.md')} and ratios.svg`,
        '',
      ].join('\n\n'),
    );
  } finally {
    for (const server of servers) await server.stop();
    await proxy.close();
  }
}

main().catch((error: unknown) => {
  log(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
