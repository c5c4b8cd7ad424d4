import type { BlackholedReadiness } from '../measure/blackholed-readiness';
import type { ColdStarts } from '../measure/cold-start';
import { ROUTES } from '../measure/routes';
import type { RoundSample } from '../measure/throughput';
import { median, ratio } from './statistics';

/** One server on one route: medians over the rounds, errors summed. */
export interface RouteFigures {
  server: string;
  route: string;
  requestsPerSecond: number;
  /** The slowest and the fastest round, to show how much the rounds varied. */
  requestsPerSecondRange: [number, number];
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Requests with no answer, or an answer other than the route's healthy status, over all rounds. */
  errors: number;
  rssMegabytes: number;
  pingsPerSecond: number;
}

/** Everything the report shows, computed from the raw measurements. */
export interface BenchSummary {
  figures: RouteFigures[];
  coldStartMs: Record<string, number>;
  blackholed: BlackholedReadiness[];
}

function failedRequests(sample: RoundSample): number {
  const healthy = ROUTES.find((route) => route.name === sample.route)?.status;
  const unexpected = Object.entries(sample.load.statusCodes)
    .filter(([code]) => Number(code) !== healthy)
    .reduce((sum, [, count]) => sum + count, 0);
  return sample.load.errors + sample.load.timeouts + unexpected;
}

/** Reduces the rounds to one row per route and server. */
export function summarize(
  samples: RoundSample[],
  coldStarts: ColdStarts,
  blackholed: BlackholedReadiness[],
): BenchSummary {
  const figures: RouteFigures[] = [];
  for (const route of ROUTES) {
    for (const server of Object.keys(coldStarts)) {
      const rounds = samples.filter((sample) => sample.route === route.name && sample.server === server);
      if (rounds.length === 0) continue;
      figures.push({
        server,
        route: route.name,
        requestsPerSecond: median(rounds.map((sample) => sample.load.requestsPerSecond)),
        requestsPerSecondRange: [
          Math.min(...rounds.map((sample) => sample.load.requestsPerSecond)),
          Math.max(...rounds.map((sample) => sample.load.requestsPerSecond)),
        ],
        latencyP50Ms: median(rounds.map((sample) => sample.load.latencyP50Ms)),
        latencyP99Ms: median(rounds.map((sample) => sample.load.latencyP99Ms)),
        errors: rounds.reduce((sum, sample) => sum + failedRequests(sample), 0),
        rssMegabytes: median(rounds.map((sample) => sample.rssBytes)) / 2 ** 20,
        pingsPerSecond: median(rounds.map((sample) => sample.pingsPerSecond)),
      });
    }
  }
  const coldStartMs = Object.fromEntries(
    Object.entries(coldStarts).map(([server, starts]) => [server, median(starts)]),
  );
  return { figures, coldStartMs, blackholed };
}

/** The throughput of `server` on `route` over that of `baseline`. */
export function throughputRatio(
  summary: BenchSummary,
  route: string,
  server: string,
  baseline: string,
): number {
  const of = (name: string): number =>
    summary.figures.find((figure) => figure.route === route && figure.server === name)?.requestsPerSecond ??
    Number.NaN;
  return ratio(of(server), of(baseline));
}
