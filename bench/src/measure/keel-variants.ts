import type { LoadGenerator } from '../load/load-request';
import { ServerProcess, type ServerLaunch } from '../processes/server-process';
import { median } from '../report/statistics';
import type { BenchSettings } from '../settings';
import type { BenchRoute } from './routes';
import { loadRoute } from './throughput';

/** One build of a keel application: the script, its environment, and the route to load. */
export interface KeelVariant {
  readonly label: string;
  readonly script: string;
  readonly env: Record<string, string>;
  /** Whether its stdout (its log) goes to a file. */
  readonly logsToFile?: boolean;
  readonly route: BenchRoute;
}

/** A variant's boot time and throughput, medians over the rounds. */
export interface VariantFigures {
  readonly label: string;
  /** Spawn to the first 200 on `/health`. */
  readonly bootMs: number;
  readonly requestsPerSecond: Partial<Record<LoadGenerator, number>>;
}

/**
 * Boots each variant in turn, round after round (interleaved, so drift hits them alike), warms it,
 * and loads its route with every generator: what one difference between builds costs at boot and per request.
 */
export async function measureVariants(
  variants: readonly KeelVariant[],
  launch: ServerLaunch,
  settings: BenchSettings,
  loadCore: number | undefined,
): Promise<VariantFigures[]> {
  const boots = new Map<string, number[]>();
  const throughputs = new Map<string, number[]>();
  const record = (map: Map<string, number[]>, key: string, value: number) =>
    map.set(key, [...(map.get(key) ?? []), value]);
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const variant of variants) {
      const server = await ServerProcess.start(
        // Its route checked first: a variant answering 401 or 404 must not be measured.
        { ...variant, name: variant.label, routes: [variant.route] },
        launch,
      );
      try {
        record(boots, variant.label, server.startupMs);
        // A process just booted runs its route unoptimised at first: warmed as the main table's servers are.
        const warmUp = settings.generators[0] ?? 'autocannon';
        await loadRoute(server, variant.route, warmUp, settings.warmupSeconds, settings, loadCore);
        for (const generator of settings.generators) {
          const load = await loadRoute(
            server,
            variant.route,
            generator,
            settings.roundSeconds,
            settings,
            loadCore,
          );
          record(throughputs, `${variant.label} ${generator}`, load.requestsPerSecond);
        }
      } finally {
        await server.stop();
      }
    }
  }
  return variants.map(({ label }) => ({
    label,
    bootMs: median(boots.get(label) ?? []),
    requestsPerSecond: Object.fromEntries(
      settings.generators.map((generator) => [
        generator,
        median(throughputs.get(`${label} ${generator}`) ?? []),
      ]),
    ),
  }));
}
