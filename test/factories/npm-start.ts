import type { ChildProcess } from 'node:child_process';
import { eventually } from './eventually';
import { within } from './http-client';

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

/**
 * Stops the process group `npm start` leads (npm, and the server it started) with SIGTERM, and with
 * SIGKILL if it has not closed within 30 s.
 *
 * @example
 * const npmStart = spawn('npm', ['start'], { detached: true });
 * try { ... } finally { await stopGroup(npmStart); }
 */
export async function stopGroup(npmStart: ChildProcess): Promise<void> {
  if (npmStart.exitCode !== null || npmStart.signalCode !== null) return;
  const closed = new Promise<void>((resolve) => npmStart.once('close', () => resolve()));
  process.kill(-(npmStart.pid as number), 'SIGTERM');
  await within(closed, 30_000, 'npm start to stop').catch(() =>
    process.kill(-(npmStart.pid as number), 'SIGKILL'),
  );
}
