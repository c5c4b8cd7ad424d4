import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, type ProgramRun } from './cli';

// The first shell block after the heading, up to its closing fence.
const START_BLOCK = /^## Start a project\n[\s\S]*?^```sh\n([\s\S]*?)^```$/m;

/**
 * The commands of README.md's "Start a project" block, one a line, as written there less their
 * trailing `# comments`: what a new user types, read from the README itself.
 *
 * @example
 * const [prepareCheckout, ...userCommands] = startProjectCommands();
 */
export function startProjectCommands(): string[] {
  const block = START_BLOCK.exec(readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'))?.[1];
  if (!block) throw new Error('README.md has no ```sh block under "## Start a project"');
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

/** Where and how long a command runs, and in what environment (replacing the test's own). */
export interface ShellOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
}

/**
 * Starts `sh -c script` as a user's non-interactive shell would run it: `setsid` gives it a session
 * of its own, with no controlling terminal, and stdin is /dev/null, so any prompt fails instead of
 * waiting. The shell leads its own process group, which `process.kill(-child.pid)` stops whole.
 *
 * @example
 * const server = spawnWithoutTerminal('npm start', { cwd: project, env });
 */
export function spawnWithoutTerminal(script: string, options: Omit<ShellOptions, 'timeoutMs'>): ChildProcess {
  return spawn('setsid', ['sh', '-c', script], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Runs `script` as `spawnWithoutTerminal` does, to its end; past `timeoutMs` its group is killed.
 *
 * @example
 * const { code, stdout } = await runWithoutTerminal('npm test', { cwd: project, env, timeoutMs: 240_000 });
 */
export function runWithoutTerminal(script: string, options: ShellOptions): Promise<ProgramRun> {
  const startedAt = performance.now();
  const child = spawnWithoutTerminal(script, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - startedAt;
      if (signal)
        stderr += `\n(killed by ${signal} after ${Math.round(ms)} ms; timeout ${options.timeoutMs} ms)`;
      resolve({ code, stdout, stderr, ms });
    });
  });
}
