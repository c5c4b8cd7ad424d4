import { readdirSync, readFileSync } from 'node:fs';

/** A process's resident memory and open file descriptors at one moment. */
export interface ProcessSample {
  readonly rssMb: number;
  readonly fds: number;
}

/**
 * Reads `pid`'s resident set size and open file descriptors from /proc (Linux).
 *
 * @example
 * const { rssMb, fds } = sampleProcess(server.pid);
 */
export function sampleProcess(pid: number): ProcessSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(rssKb / 102.4) / 10, fds: readdirSync(`/proc/${pid}/fd`).length };
}
