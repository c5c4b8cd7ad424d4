import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/** One package as npm installed it: where it is, and the Node versions its `engines` accept. */
export interface InstalledPackage {
  readonly id: string;
  readonly dir: string;
  /** `engines.node`, when the package states one. */
  readonly node?: string;
}

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function manifestAt(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

// Node's own lookup: the nearest node_modules/<name> from `dir` up to the filesystem's root.
function locate(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(at) === at) return undefined;
  }
}

/** Which packages {@link installedPackages} follows. */
export interface PackageWalk {
  /** The root's development dependencies too. */
  readonly withDev?: boolean;
  /** The root and the packages it names itself, not theirs. */
  readonly directOnly?: boolean;
}

/**
 * The package at `dir` and every package it brings in, as installed on disk: its dependencies,
 * its peers (the optional ones when present), and, with `withDev`, its development dependencies.
 *
 * @example
 * installedPackages(path.join(project, 'node_modules', 'keel')).map((found) => found.id);
 */
export function installedPackages(
  dir: string,
  { withDev = false, directOnly = false }: PackageWalk = {},
): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const pending = [{ dir, isRoot: true }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (found.has(next.dir)) continue;
    const manifest = manifestAt(next.dir);
    found.set(next.dir, {
      id: `${manifest.name}@${manifest.version}`,
      dir: next.dir,
      node: manifest.engines?.node,
    });
    if (directOnly && !next.isRoot) continue;
    const optional = new Set([
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.entries(manifest.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional)
        .map(([name]) => name),
    ]);
    const names = Object.keys({
      ...manifest.dependencies,
      ...manifest.optionalDependencies,
      ...manifest.peerDependencies,
      ...(next.isRoot && withDev ? manifest.devDependencies : {}),
    });
    for (const name of names) {
      const at = locate(name, next.dir);
      if (at) pending.push({ dir: at, isRoot: false });
      else if (!optional.has(name)) throw new Error(`${manifest.name} needs ${name}, which is not installed`);
    }
  }
  return [...found.values()];
}

/**
 * The packages whose `engines` refuse some Node that `range` accepts: `name@version (engines)`
 * each, none when `range` is true of them all.
 *
 * @example
 * expect(refusingSomeOf('>=20.19.0', installedPackages(keelDir))).toEqual([]);
 */
export function refusingSomeOf(range: string, packages: readonly InstalledPackage[]): string[] {
  return packages
    .filter((found) => found.node !== undefined && !semver.subset(range, found.node))
    .map((found) => `${found.id} (${found.node})`)
    .sort();
}
