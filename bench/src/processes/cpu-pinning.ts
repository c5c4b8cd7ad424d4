import { spawnSync } from 'node:child_process';
import os from 'node:os';

/** Which core each side runs on; `undefined` where the machine cannot pin (one core, no taskset). */
export interface CpuPinning {
  serverCore: number | undefined;
  loadCore: number | undefined;
  description: string;
}

/** Decides the pinning once: servers on core 1, the load generator and the runner on core 0. */
export function planCpuPinning(): CpuPinning {
  const cores = os.availableParallelism();
  const hasTaskset = spawnSync('taskset', ['--version']).status === 0;
  if (cores < 2 || !hasTaskset)
    return {
      serverCore: undefined,
      loadCore: undefined,
      description: `not pinned (${cores} core(s), taskset ${hasTaskset ? 'present' : 'absent'})`,
    };
  // The runner hosts the database proxy: it stays off the server's core too.
  spawnSync('taskset', ['-cp', '0', String(process.pid)]);
  return {
    serverCore: 1,
    loadCore: 0,
    description: 'servers on core 1; load generator, runner and database proxy on core 0 (taskset)',
  };
}

/** The command and arguments that run `args` on `core`, or unpinned when `core` is undefined. */
export function pinnedCommand(core: number | undefined, args: string[]): [string, string[]] {
  if (core === undefined) return [args[0] ?? 'node', args.slice(1)];
  return ['taskset', ['-c', String(core), ...args]];
}
