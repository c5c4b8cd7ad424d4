import { expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// The embedded database's pid-file lock, raced by real processes: however they interleave, exactly
// one of them may own the data directory.
const run = promisify(execFile);
const CLAIM = path.join(__dirname, '..', 'fixtures', 'apps', 'lock-data-dir.mjs');

async function claimTogether(
  dataDir: string,
  processes: number,
): Promise<{ locked: boolean; error?: string }[]> {
  const outcomes = Array.from({ length: processes }, () =>
    run(process.execPath, [CLAIM, dataDir, String(processes)]),
  );
  return (await Promise.all(outcomes)).map(({ stdout }) => JSON.parse(stdout) as { locked: boolean });
}

async function deadPid(): Promise<string> {
  return (await run(process.execPath, ['-p', 'process.pid'])).stdout;
}

async function raceRounds(setUp: (pidFile: string) => Promise<void>, processes: number): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'keel-lock-'));
  try {
    for (let round = 0; round < 15; round++) {
      const dataDir = path.join(root, `data-${round}`);
      await setUp(`${dataDir}.pid`);
      const outcomes = await claimTogether(dataDir, processes);
      expect(outcomes.filter((outcome) => outcome.locked)).toHaveLength(1);
      for (const outcome of outcomes.filter((each) => !each.locked)) {
        expect(outcome.error).toMatch(
          /^E_DATA_DIR_IN_USE: the embedded database in .* is in use by process \d+\.\nFix: /,
        );
      }
    }
    // Released at the end, and no drafts left beside it.
    expect(await readdir(root)).toEqual([]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test('three processes claiming a free data directory at once: one owner', async () => {
  await raceRounds(async () => {}, 3);
}, 120_000);

test('two processes taking over a stale pid file at once: one owner', async () => {
  const stale = await deadPid();
  await raceRounds((pidFile) => writeFile(pidFile, stale), 2);
}, 120_000);
