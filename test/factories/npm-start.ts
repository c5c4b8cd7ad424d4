import type { ChildProcess } from 'node:child_process';
import { eventually } from './eventually';

const LISTENING = /"url":"(http:\/\/[^"]+)","msg":"listening"/;

/**
 * The URL `npm start` logs once its server listens, read from its `output()` so far; rejects once
 * npm has exited without it, or after `timeoutMs`.
 *
 * @example
 * const url = await listeningUrl(npmStart, () => output, 90_000);
 */
export async function listeningUrl(
  npmStart: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<string> {
  // An npm that has exited will never listen: the wait ends at once.
  const url = await eventually(
    () => {
      const listening = LISTENING.exec(output())?.[1];
      if (listening !== undefined || npmStart.exitCode !== null) return listening;
      throw new Error(`its output so far:\n${output()}`);
    },
    { within: timeoutMs, every: 100, what: 'npm start to listen' },
  );
  if (url === undefined) throw new Error(`npm start exited without listening; its output:\n${output()}`);
  return url;
}
