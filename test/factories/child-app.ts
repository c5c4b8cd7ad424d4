import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { eventually } from './eventually';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'apps');

/** One line the fixture wrote to stdout: its port, a request it received, a hook call, a log entry. */
export type OutputLine = Record<string, unknown>;

/** How the child process ended, and when (`performance.now()` in the test process). */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly at: number;
}

/** The fixture application running in its own process. */
export interface ChildApp {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resolves once the process has exited and its output has all been read. */
  readonly exited: Promise<ChildExit>;
  /** Every stdout line so far. */
  lines(): OutputLine[];
  /** Resolves when `predicate` holds for the lines written so far; rejects after `timeoutMs`. */
  waitFor(what: string, predicate: (lines: OutputLine[]) => boolean, timeoutMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();

/** A Node program to run as a child process, and how to tell it is serving. */
export interface ChildProgram {
  /** The script and its arguments, run with this Node. */
  readonly args: readonly string[];
  /** Where it runs; default: the repository root. */
  readonly cwd?: string;
  /** Added to (or, when undefined, removed from) the test process's environment. */
  readonly env?: Record<string, string | undefined>;
  /** The base URL, once the output says the program listens; undefined until then. */
  urlFrom(lines: OutputLine[]): string | undefined;
  readonly startTimeoutMs?: number;
}

/**
 * Starts a fixture application of test/fixtures/apps (default: `shutdown-app.mjs`) with `env` added
 * to the environment and resolves once it listens.
 */
export function startApp(env: Record<string, string> = {}, fixture = 'shutdown-app.mjs'): Promise<ChildApp> {
  return startChild({
    args: [path.join(FIXTURES, fixture)],
    env,
    urlFrom: (lines) => {
      const port = lines.find((line) => 'port' in line)?.port as number | undefined;
      return port === undefined ? undefined : `http://127.0.0.1:${port}`;
    },
  });
}

/** Starts `program` and resolves once its output gives its URL. */
export async function startChild(program: ChildProgram): Promise<ChildApp> {
  const env = Object.fromEntries(
    Object.entries({ ...process.env, ...program.env }).filter(([, value]) => value !== undefined),
  );
  const child = spawn(process.execPath, [...program.args], {
    cwd: program.cwd ?? path.join(__dirname, '..', '..'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const output: OutputLine[] = [];
  let stderr = '';
  let partial = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const complete = (partial + chunk).split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) output.push(parseLine(line));
  });
  let exit: ChildExit | undefined;
  // 'close', not 'exit': by then stdout has been read to its end.
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('close', (code, signal) => {
      running.delete(child);
      exit = { code, signal, at: performance.now() };
      resolve(exit);
    });
  });

  const waitFor: ChildApp['waitFor'] = async (what, predicate, timeoutMs = 5000) => {
    // A fixture that has exited writes no more lines: the wait ends at once, and says so.
    const seen = await eventually(
      () => {
        if (predicate(output)) return 'seen';
        if (exit) return 'exited';
        throw new Error(`not yet; stderr: ${stderr || '(empty)'}`);
      },
      { within: timeoutMs, every: 10, what },
    );
    if (seen === 'exited')
      throw new Error(
        `the fixture exited (${exit?.code ?? exit?.signal}) before ${what}; stderr: ${stderr || '(empty)'}`,
      );
  };

  const startTimeoutMs = program.startTimeoutMs ?? 10_000;
  await waitFor('the listening line', (lines) => program.urlFrom(lines) !== undefined, startTimeoutMs);
  const url = program.urlFrom(output) as string;
  return { url, child, exited, lines: () => output, waitFor };
}

/** Kills every fixture process still running (a failed test must not leave one behind). */
export function killRunningApps(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** The lines that are keel log entries with the message `msg`. */
export function logged(lines: OutputLine[], msg: string): OutputLine[] {
  return lines.filter((line) => line.msg === msg);
}

function parseLine(line: string): OutputLine {
  if (!line.startsWith('{')) return { text: line };
  return JSON.parse(line) as OutputLine;
}
