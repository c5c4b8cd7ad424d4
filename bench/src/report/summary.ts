import type { TestDatabaseFigures } from '../measure/test-database-boot';
import type { BlackholedReadiness } from '../measure/blackholed-readiness';
import type { ColdStarts } from '../measure/cold-start';
import type { CpuProfileSummary } from '../measure/cpu-profile';
import type { VariantFigures } from '../measure/keel-variants';
import type { LargeTableFigures } from '../measure/large-table';
import type { FanOutFigures } from '../measure/sse-fan-out';
import { MEASURED_ROUTES } from '../measure/routes';
import type { LoadGenerator } from '../load/load-request';
import type { RoundSample } from '../measure/throughput';
import { median, ratio } from './statistics';

/** One server on one route with one generator: medians over the rounds, errors summed. */
export interface RouteFigures {
  server: string;
  route: string;
  generator: LoadGenerator;
  requestsPerSecond: number;
  /** The slowest and the fastest round, to show how much the rounds varied. */
  requestsPerSecondRange: [number, number];
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Requests with no answer, or an answer other than the route's healthy status, over all rounds. */
  errors: number;
  pingsPerSecond: number;
  /** The generator's own CPU, percent of one core. */
  generatorCpuPercent: number;
}

/** A set of servers measured together: one row per route, generator and server, and their memory. */
export interface ServerFigures {
  figures: RouteFigures[];
  /** Resident memory of each server after its last round of load, in MB. */
  memoryAfterLoadMb: Record<string, number>;
}

/** Everything the report shows, computed from the raw measurements. */
export interface BenchSummary extends ServerFigures {
  generators: LoadGenerator[];
  coldStartMs: Record<string, number>;
  blackholed: BlackholedReadiness[];
  largeTable: LargeTableFigures[];
  /** `GET /orders/:id` bare, then with each part of a production configuration on; the bare one first. */
  configurationCost: VariantFigures[];
  /** keel's Broadcast to many SSE streams; `undefined` when the run left it out. */
  fanOut: FanOutFigures | undefined;
  /** Every peer with request logging and metrics on, as its users set them up. */
  production: ServerFigures;
  /** keel and Fastify on the validated POST, each through its usual validator and through zod. */
  validation: ServerFigures;
  /** `undefined` when the run left the profile out (`BENCH_ONLY`). */
  profile: CpuProfileSummary | undefined;
  /** keel/testing's withTestDatabase(): boot and close on a database of its own; `undefined` when left out. */
  testDatabase: TestDatabaseFigures | undefined;
}

/** The raw measurements of one run. */
export interface BenchMeasurements {
  generators: LoadGenerator[];
  samples: RoundSample[];
  coldStarts: ColdStarts;
  blackholed: BlackholedReadiness[];
  largeTable: LargeTableFigures[];
  configurationCost: VariantFigures[];
  fanOut: FanOutFigures | undefined;
  /** The rounds of the production configurations. */
  productionSamples: RoundSample[];
  /** The rounds of the validated POSTs, keel's and Fastify's alone. */
  validationSamples: RoundSample[];
  profile: CpuProfileSummary | undefined;
  testDatabase: TestDatabaseFigures | undefined;
}

function failedRequests(sample: RoundSample): number {
  const healthy = MEASURED_ROUTES.find((route) => route.name === sample.route)?.status;
  const unexpected = Object.entries(sample.load.statusCodes)
    .filter(([code]) => code !== String(healthy))
    .reduce((sum, [, count]) => sum + count, 0);
  return sample.load.errors + sample.load.timeouts + unexpected;
}

function routeFigures(rounds: RoundSample[], first: RoundSample): RouteFigures {
  const throughputs = rounds.map((sample) => sample.load.requestsPerSecond);
  return {
    server: first.server,
    route: first.route,
    generator: first.generator,
    requestsPerSecond: median(throughputs),
    requestsPerSecondRange: [Math.min(...throughputs), Math.max(...throughputs)],
    latencyP50Ms: median(rounds.map((sample) => sample.load.latencyP50Ms)),
    latencyP99Ms: median(rounds.map((sample) => sample.load.latencyP99Ms)),
    errors: rounds.reduce((sum, sample) => sum + failedRequests(sample), 0),
    pingsPerSecond: median(rounds.map((sample) => sample.pingsPerSecond)),
    generatorCpuPercent: median(rounds.map((sample) => sample.load.generatorCpuPercent)),
  };
}

/** Reduces the rounds to one row per route, generator and server, in the order they were measured. */
function summarizeRounds(
  samples: readonly RoundSample[],
  generators: readonly LoadGenerator[],
): ServerFigures {
  const servers = [...new Set(samples.map((sample) => sample.server))];
  const figures: RouteFigures[] = [];
  for (const route of MEASURED_ROUTES)
    for (const generator of generators)
      for (const server of servers) {
        const rounds = samples.filter(
          (sample) =>
            sample.route === route.name && sample.server === server && sample.generator === generator,
        );
        if (rounds[0] !== undefined) figures.push(routeFigures(rounds, rounds[0]));
      }
  const memoryAfterLoadMb: Record<string, number> = {};
  for (const sample of samples) memoryAfterLoadMb[sample.server] = sample.rssBytes / 2 ** 20;
  return { figures, memoryAfterLoadMb };
}

/** Reduces the raw measurements to what the report shows. */
export function summarize(measurements: BenchMeasurements): BenchSummary {
  const { coldStarts, generators } = measurements;
  return {
    generators,
    ...summarizeRounds(measurements.samples, generators),
    coldStartMs: Object.fromEntries(
      Object.entries(coldStarts).map(([server, starts]) => [server, median(starts)]),
    ),
    production: summarizeRounds(measurements.productionSamples, generators),
    validation: summarizeRounds(measurements.validationSamples, generators),
    blackholed: measurements.blackholed,
    largeTable: measurements.largeTable,
    configurationCost: measurements.configurationCost,
    fanOut: measurements.fanOut,
    profile: measurements.profile,
    testDatabase: measurements.testDatabase,
  };
}

/** A figure of one server on one route, as `figures` hold it. */
export type FigureName = 'requestsPerSecond' | 'latencyP99Ms';

/** `figure` of `server` on `route` over that of `baseline`, both measured with `generator`. */
export function figureRatio(
  figures: readonly RouteFigures[],
  figure: FigureName,
  {
    route,
    generator,
    server,
    baseline,
  }: { route: string; generator: LoadGenerator; server: string; baseline: string },
): number {
  const of = (name: string): number =>
    figures.find((row) => row.route === route && row.generator === generator && row.server === name)?.[
      figure
    ] ?? Number.NaN;
  return ratio(of(server), of(baseline));
}
