import type { LoadGenerator } from './load/load-request';
import { hasWrk } from './load/wrk';

/** The parts of a run, as `BENCH_ONLY` names them. */
export const BENCH_PARTS = [
  'cold-start',
  'throughput',
  'blackhole',
  'production',
  'validation',
  'large-table',
  'configuration',
  'sse-fan-out',
  'profile',
  'test-database',
] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

/** How long and how hard the benchmark runs; every figure can be set through the environment. */
export interface BenchSettings {
  /** autocannon always; wrk too where it is installed (autocannon saturates its core first). */
  generators: LoadGenerator[];
  /** Routes in the large-table measurement. */
  largeRouteCount: number;
  /** SSE streams the fan-out part opens on one keel process. */
  fanOutStreams: number;
  /** Events it publishes to them per round. */
  fanOutEvents: number;
  /** Seconds of `GET /orders/:id` under the CPU profiler. */
  profileSeconds: number;
  databaseUrl: string;
  connections: number;
  roundSeconds: number;
  rounds: number;
  warmupSeconds: number;
  coldStarts: number;
  blackholeSeconds: number;
  isQuick: boolean;
  /** The parts this run measures; fewer than all only with `BENCH_ONLY`, whose run publishes nothing. */
  parts: ReadonlySet<BenchPart>;
}

function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function partsFrom(raw: string | undefined): ReadonlySet<BenchPart> {
  if (raw === undefined || raw.trim() === '') return new Set(BENCH_PARTS);
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(BENCH_PARTS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(
      `BENCH_ONLY names no part "${unknown.join('", "')}"; the parts: ${BENCH_PARTS.join(', ')}`,
    );
  return new Set(names as BenchPart[]);
}

/** Whether `settings` measure every part, so that the run's report may be published. */
export const isCompleteRun = (settings: BenchSettings): boolean => settings.parts.size === BENCH_PARTS.length;

/**
 * Reads `BENCH_*` from the environment. `BENCH_QUICK=1` shortens everything for a trial run; its
 * figures are too noisy to publish. `BENCH_ONLY=throughput,production` (a comma-separated list of
 * `BENCH_PARTS`) measures those parts alone and prints their tables without writing `results/`.
 */
export function readBenchSettings(): BenchSettings {
  const isQuick = process.env.BENCH_QUICK === '1';
  return {
    generators: hasWrk() ? ['autocannon', 'wrk'] : ['autocannon'],
    largeRouteCount: numberFrom('BENCH_LARGE_ROUTES', 10_000),
    fanOutStreams: numberFrom('BENCH_FAN_OUT_STREAMS', 1000),
    fanOutEvents: numberFrom('BENCH_FAN_OUT_EVENTS', isQuick ? 200 : 1000),
    profileSeconds: numberFrom('BENCH_PROFILE_SECONDS', isQuick ? 2 : 10),
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    connections: numberFrom('BENCH_CONNECTIONS', 50),
    roundSeconds: numberFrom('BENCH_ROUND_SECONDS', isQuick ? 1 : 5),
    rounds: numberFrom('BENCH_ROUNDS', isQuick ? 1 : 3),
    warmupSeconds: numberFrom('BENCH_WARMUP_SECONDS', isQuick ? 1 : 2),
    coldStarts: numberFrom('BENCH_COLD_STARTS', isQuick ? 1 : 5),
    blackholeSeconds: numberFrom('BENCH_BLACKHOLE_SECONDS', isQuick ? 2 : 5),
    isQuick,
    parts: partsFrom(process.env.BENCH_ONLY),
  };
}

/** The command that reproduces a run with these settings: `npm run bench` and the overrides. */
export function benchCommand(): string {
  const overrides = Object.keys(process.env)
    .filter((name) => name.startsWith('BENCH_') || name === 'DATABASE_URL')
    .sort()
    .map((name) => `${name}=${shownValue(name, process.env[name] ?? '')}`);
  return [...overrides, 'npm run bench'].join(' ');
}

// The command is published in the results: a database password must not be.
function shownValue(name: string, value: string): string {
  if (name !== 'DATABASE_URL' || !URL.canParse(value)) return value;
  const url = new URL(value);
  if (url.password) url.password = '***';
  return url.toString();
}
