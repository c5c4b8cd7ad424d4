import { mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { LoadGenerator } from '../load/load-request';
import { ServerProcess, SERVERS, type ServerLaunch } from '../processes/server-process';
import type { BenchSettings } from '../settings';
import { benchRoute } from './routes';
import { loadRoute } from './throughput';

/** Where keel's CPU time went while it served one route: shares of the busy (non-idle) samples. */
export interface CpuProfileSummary {
  route: string;
  generator: LoadGenerator;
  seconds: number;
  /** Share of busy time per category, in percent. */
  shares: Record<ProfileCategory, number>;
  /** The functions with the most self time, busy percent. */
  hottest: { name: string; where: string; percent: number }[];
}

export type ProfileCategory =
  'keel' | 'find-my-way' | 'Express' | 'other packages' | 'benchmark app' | 'Node';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PROFILED_ROUTE = benchRoute('GET /orders/:id');

/** Express and every package it pulls in, found by walking the installed dependency tree. */
function expressPackages(): Set<string> {
  const names = new Set<string>();
  const visit = (name: string, from: string): void => {
    if (names.has(name)) return;
    let manifestPath: string;
    try {
      manifestPath = createRequire(from).resolve(`${name}/package.json`);
    } catch {
      return; // a package that hides its manifest is not walked further
    }
    names.add(name);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, manifestPath);
  };
  visit('express', require.resolve('keel'));
  return names;
}

function packageOf(url: string): string | undefined {
  const match = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return match?.[1];
}

function categorize(url: string, keelDir: string, benchDir: string, express: Set<string>): ProfileCategory {
  const file = url.replace(/^file:\/\//, '');
  // keel is installed under the bench's node_modules, as a user's is: its own files first.
  if (file.startsWith(keelDir)) return 'keel';
  const dependency = packageOf(file);
  if (dependency === 'find-my-way') return 'find-my-way';
  if (dependency !== undefined) return express.has(dependency) ? 'Express' : 'other packages';
  if (file.startsWith(benchDir)) return 'benchmark app';
  return 'Node'; // node: modules, V8 builtins, native code, the garbage collector
}

/** Self time per node: each sample's time delta goes to the node it landed on. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  profile.samples.forEach((nodeId, index) => {
    times.set(nodeId, (times.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return times;
}

/** Reads a `.cpuprofile` into shares per category and the hottest functions. */
export function summarizeProfile(
  profile: CpuProfile,
  keelDir: string,
  benchDir: string,
): Omit<CpuProfileSummary, 'route' | 'generator' | 'seconds'> {
  const express = expressPackages();
  const times = selfTimes(profile);
  const shares: Record<ProfileCategory, number> = {
    keel: 0,
    'find-my-way': 0,
    Express: 0,
    'other packages': 0,
    'benchmark app': 0,
    Node: 0,
  };
  const functions = new Map<string, { name: string; where: string; time: number }>();
  let busy = 0;
  for (const node of profile.nodes) {
    const time = times.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (time === 0 || functionName === '(idle)') continue;
    busy += time;
    shares[categorize(url, keelDir, benchDir, express)] += time;
    const where = url === '' ? '(native)' : `${path.basename(url)}:${lineNumber + 1}`;
    const key = `${functionName} ${where}`;
    const entry = functions.get(key) ?? { name: functionName || '(anonymous)', where, time: 0 };
    entry.time += time;
    functions.set(key, entry);
  }
  const percent = (time: number): number => (busy > 0 ? (time / busy) * 100 : Number.NaN);
  for (const category of Object.keys(shares) as ProfileCategory[])
    shares[category] = percent(shares[category]);
  const hottest = [...functions.values()]
    .sort((a, b) => b.time - a.time)
    .slice(0, 10)
    .map(({ name, where, time }) => ({ name, where, percent: percent(time) }));
  return { shares, hottest };
}

/** Runs keel under `--cpu-prof` while `GET /orders/:id` is loaded, and summarizes the profile. */
export async function profileKeel(
  launch: ServerLaunch,
  settings: BenchSettings,
  loadCore: number | undefined,
): Promise<CpuProfileSummary> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'keel-bench-profile-'));
  const keel = SERVERS[0] as (typeof SERVERS)[number];
  const server = await ServerProcess.start(keel, {
    ...launch,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', directory],
  });
  const generator = settings.generators.at(-1) ?? 'autocannon';
  try {
    await loadRoute(server, PROFILED_ROUTE, generator, settings.profileSeconds, settings, loadCore);
  } finally {
    await server.stop(); // the profile is written as the process exits
  }
  const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`keel wrote no CPU profile into ${directory}`);
  const profile = JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as CpuProfile;
  const keelDir = path.dirname(realpathSync(require.resolve('keel')));
  const benchDir = path.resolve(__dirname, '..');
  return {
    route: PROFILED_ROUTE.name,
    generator,
    seconds: settings.profileSeconds,
    ...summarizeProfile(profile, keelDir, benchDir),
  };
}
