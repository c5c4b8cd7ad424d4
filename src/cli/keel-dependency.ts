import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CliErrors } from '../errors/cli-errors';

/** How a new project depends on keel: the spec its package.json names, and a tarball to copy in. */
export interface KeelDependency {
  /** What `dependencies.keel` says: a version, or `file:vendor/keel-0.1.0.tgz`. */
  readonly spec: string;
  /** The tarball to copy into the project's `vendor/`, when keel comes from one. */
  readonly tarball?: string;
}

const VENDOR = 'vendor';

/**
 * The dependency `--keel <spec>` asks for. A tarball (`npm pack`'s `.tgz`) is copied into the
 * project's `vendor/` and named by a path relative to the project, so that the lock file holds no
 * path outside the directory and the project's own Docker build context has everything `npm ci`
 * needs. Another path (a checkout) is written absolute, as npm reads it from the project; a
 * version or a range is written as given.
 *
 * @example
 * keelDependency('./keel-0.1.0.tgz', '/home/ada'); // { spec: 'file:vendor/keel-0.1.0.tgz', tarball: '/home/ada/keel-0.1.0.tgz' }
 */
export function keelDependency(spec: string, cwd: string): KeelDependency {
  const isPath = /^(\.{1,2}[\\/]|\/)/.test(spec) || spec.endsWith('.tgz');
  if (!isPath) return { spec };
  const resolved = path.resolve(cwd, spec);
  if (!resolved.endsWith('.tgz')) return { spec: resolved };
  if (!statSync(resolved, { throwIfNoEntry: false })?.isFile()) throw CliErrors.keelTarballMissing(spec);
  return { spec: `file:${VENDOR}/${path.basename(resolved)}`, tarball: resolved };
}

/** Copies the dependency's tarball, if any, into `directory`'s `vendor/`. @example vendorKeel(dependency, '/home/ada/my-app') */
export function vendorKeel(dependency: KeelDependency, directory: string): void {
  if (!dependency.tarball) return;
  mkdirSync(path.join(directory, VENDOR), { recursive: true });
  copyFileSync(dependency.tarball, path.join(directory, VENDOR, path.basename(dependency.tarball)));
}

/** The Dockerfile line that brings `vendor/` into the build context before `npm ci`, or nothing. @example dockerVendorCopy(dependency) // 'COPY vendor vendor\n' */
export function dockerVendorCopy(dependency: KeelDependency): string {
  return dependency.tarball ? `COPY ${VENDOR} ${VENDOR}\n` : '';
}
