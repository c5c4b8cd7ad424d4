import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import nodeModule from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, runNode, type ProgramRun } from '../factories/cli';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'apps', 'compile-cache.mjs');

// Node 22.1 brought the compile cache; on Node 20 keel loads as it always did.
const nodeHasCompileCache = 'enableCompileCache' in nodeModule;

let temporary: string;

beforeEach(async () => {
  temporary = await mkdtemp(path.join(os.tmpdir(), 'keel-compile-cache-'));
});

afterEach(async () => {
  await rm(temporary, { recursive: true, force: true });
});

/** Loads keel in a new process whose temporary directory is `temporary`, NODE_COMPILE_CACHE unset. */
async function loadKeel(
  env: Readonly<Record<string, string>> = {},
): Promise<ProgramRun & { directory: string | null }> {
  const run = await runNode(FIXTURE, [], {
    env: {
      TMPDIR: temporary,
      NODE_COMPILE_CACHE: undefined,
      NODE_DISABLE_COMPILE_CACHE: undefined,
      NODE_V8_COVERAGE: undefined,
      ...env,
    },
    timeoutMs: 30_000,
  });
  expect(run.code).toBe(0);
  const { directory } = JSON.parse(run.stdout) as { directory: string | null };
  return { ...run, directory };
}

// Each assertion is of the Node it runs on: CI runs this file on Node 24 and on Node 20.
test("loading keel turns Node's compile cache on, and the next process reads keel's modules from it", async () => {
  const first = await loadKeel();
  if (!nodeHasCompileCache) {
    expect(first.directory).toBeNull();
    expect(existsSync(path.join(temporary, 'node-compile-cache'))).toBe(false);
    return;
  }
  expect(first.directory?.startsWith(path.join(temporary, 'node-compile-cache'))).toBe(true);
  expect((await readdir(first.directory ?? temporary)).length).toBeGreaterThan(100);

  const second = await loadKeel({ NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
  expect(second.directory).toBe(first.directory);
  expect(second.stderr).toMatch(
    /code cache for CommonJS \S+\/dist\/application\/create-application\.js was accepted/,
  );
});

test('NODE_DISABLE_COMPILE_CACHE=1 keeps it off, as it does on a Node without one', async () => {
  const off = await loadKeel(nodeHasCompileCache ? { NODE_DISABLE_COMPILE_CACHE: '1' } : {});
  expect(off.directory).toBeNull();
  expect(existsSync(path.join(temporary, 'node-compile-cache'))).toBe(false);
});

test('a process whose V8 coverage is collected (NODE_V8_COVERAGE) is left without it', async () => {
  const coverage = path.join(temporary, 'coverage');
  const covered = await loadKeel({ NODE_V8_COVERAGE: coverage });
  expect(covered.directory).toBeNull();
  expect(existsSync(path.join(temporary, 'node-compile-cache'))).toBe(false);
  // Coverage was collected all the same: the variable reached the process.
  expect((await readdir(coverage)).length).toBeGreaterThan(0);
});
