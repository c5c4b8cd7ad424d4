import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT, type ProgramRun } from '../factories/cli';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'apps', 'logged-lines.mjs');
const LINES = 20_000;

/**
 * Runs the fixture with its stdout left unread for the first half second, so that the pipe fills
 * and the writer meets partial writes and a full pipe before anything is read.
 */
async function runWithSlowReader(ending: 'exit' | 'drain'): Promise<ProgramRun> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [FIXTURE, ending, String(LINES)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.pause();
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  await sleep(500);
  child.stdout.resume();
  const code = await exited;
  return { code, stdout: Buffer.concat(stdout).toString('utf8'), stderr, ms: performance.now() - startedAt };
}

/** The fixture's lines, parsed, each checked whole. */
function parsedLines(stdout: string): Array<{ sequence: number; text: string; msg: string }> {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((text) => JSON.parse(text) as { sequence: number; text: string; msg: string });
}

/** The sequence numbers the fixture writes, in its order: the long line follows line 500. */
function expectedSequence(): number[] {
  const sequence: number[] = [];
  for (let line = 0; line < LINES; line += 1) {
    sequence.push(line);
    if (line === 500) sequence.push(-1);
  }
  return sequence;
}

function expectEveryLine(run: ProgramRun): void {
  expect(run.stderr).toBe('');
  const lines = parsedLines(run.stdout);
  expect(lines.map((line) => line.sequence)).toEqual(expectedSequence());
  expect(lines.find((line) => line.sequence === 107)?.text).toBe('ünïcødé ✓ 🚢 '.repeat(20));
  expect(lines.find((line) => line.sequence === -1)?.text).toBe('x'.repeat(200_000));
}

// keel's default logger batches the lines of a turn of the event loop into one write: no line may be
// lost, cut, reordered or mis-encoded, however the process ends and however slowly stdout is read.
describe('the default logger on stdout', () => {
  it('writes every line, whole and in order, when the process ends by itself', async () => {
    const run = await runWithSlowReader('drain');
    expect(run.code).toBe(0);
    expectEveryLine(run);
  }, 30_000);

  it('writes every line when process.exit() is called in the same turn as the last of them', async () => {
    const run = await runWithSlowReader('exit');
    expect(run.code).toBe(3);
    expectEveryLine(run);
  }, 30_000);
});
