import { spawn } from 'node:child_process';
import path from 'node:path';
import { within } from './http-client';

/** A `framework dev` running in a project, and what it has printed so far. */
export interface DevServerRun {
  /** The dev server's own process (its own process group, so a backstop can end everything). */
  readonly pid: number;
  /** Its output and its applications', stdout and stderr interleaved. */
  output(): string;
  /** The URL the latest application it started said it listens on, if any. */
  latestUrl(): string | undefined;
  /** The pids of the applications it said it started, in order. */
  applicationPids(): number[];
  /** Resolves with its exit code (or signal) once it has exited. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /** Backstop for a failed test: kills its whole process group. */
  kill(): Promise<void>;
}

/**
 * Starts `framework dev` in `project` as its own process (no npm in between, so a signal sent to
 * `pid` reaches the dev server alone); `program` is the project's `node_modules/.bin/framework`,
 * the one `npm run dev` runs, unless given.
 *
 * @example
 * const dev = startDevServer(project, { ...process.env, PORT: '0' });
 * await eventually(() => dev.latestUrl() ?? false, { within: 60_000 });
 */
export function startDevServer(
  project: string,
  env: NodeJS.ProcessEnv,
  program = path.join(project, 'node_modules', '.bin', 'framework'),
): DevServerRun {
  const child = spawn(process.execPath, [program, 'dev'], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  return {
    pid: child.pid as number,
    output: () => output,
    latestUrl: () =>
      [...output.matchAll(/"url":"(http:\/\/[^"]+)","msg":"listening"/g)].at(-1)?.[1] ?? undefined,
    applicationPids: () =>
      [...output.matchAll(/started node dist\/main\.js \(pid (\d+)\)/g)].map((match) => Number(match[1])),
    exited,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-(child.pid as number), 'SIGKILL');
      await within(exited, 10_000, 'framework dev to be killed');
    },
  };
}

/**
 * Whether a process with `pid` is still there.
 *
 * @example
 * expect(isRunning(dev.applicationPids()[0])).toBe(false);
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
