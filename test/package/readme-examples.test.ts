import { afterAll, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, runNode } from '../factories/cli';
import { generateProject } from '../factories/new-project';

// README.md's complete programs (each fenced block after a line "A complete program:"), compiled as
// written in a project `framework new` makes, under its own tsconfig. Its packages are this
// repository's: keel is the checkout, the rest what the checkout installed.
const TSC = path.join(REPO_ROOT, 'node_modules', '@typescript', 'native', 'bin', 'tsc');
const PROGRAM = /^A complete program:\n\n```ts\n([\s\S]*?)^```$/gm;

const project = generateProject();
afterAll(() => project.remove());

function linkPackages(dir: string): void {
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  symlinkSync(REPO_ROOT, path.join(modules, 'keel'), 'dir');
  for (const name of readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (name !== '.bin')
      symlinkSync(path.join(REPO_ROOT, 'node_modules', name), path.join(modules, name), 'dir');
  }
}

test('the README’s complete programs compile in a new project', async () => {
  const programs = [...readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').matchAll(PROGRAM)].map(
    ([, source]) => source,
  );
  expect(programs.length).toBeGreaterThanOrEqual(2);
  linkPackages(project.dir);
  programs.forEach((source, index) =>
    writeFileSync(path.join(project.dir, 'src', `readme-example-${index + 1}.ts`), source),
  );
  const run = await runNode(TSC, ['-p', 'tsconfig.json', '--noEmit'], {
    cwd: project.dir,
    timeoutMs: 120_000,
  });
  expect(run.stdout + run.stderr).toBe('');
  expect(run.code).toBe(0);
}, 150_000);
