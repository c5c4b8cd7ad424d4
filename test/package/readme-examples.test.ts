import { afterAll, expect, test } from '@jest/globals';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, runNode } from '../factories/cli';
import { documentationPages, readPage } from '../factories/documentation';
import { generateProject } from '../factories/new-project';

// The documentation's complete programs (each fenced block after a line "A complete program:", in
// README.md and every page of docs/), compiled as written in a project `framework new` makes, under
// its own tsconfig. Its packages are this repository's: keel is the checkout, the rest what the
// checkout installed.
const TSC = path.join(REPO_ROOT, 'node_modules', '@typescript', 'native', 'bin', 'tsc');
const PROGRAM = /^A complete program:\n\n```ts\n([\s\S]*?)^```$/gm;
const MARKER = /^A complete program:$/gm;

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

test('the complete programs of README.md and docs/ compile in a new project', async () => {
  const pages = documentationPages().filter((page) => page === 'README.md' || page.startsWith('docs'));
  const programs = pages.flatMap((page) =>
    [...readPage(page).matchAll(PROGRAM)].map(([, source], index) => ({
      file: `${page.replace(/\.md$/, '').replaceAll(/[/.]/g, '-')}-${index + 1}.ts`,
      source,
    })),
  );
  expect(programs.length).toBeGreaterThanOrEqual(7);
  // A marker whose block is not TypeScript right after it would otherwise go unchecked.
  const markers = pages.reduce((count, page) => count + [...readPage(page).matchAll(MARKER)].length, 0);
  expect(markers).toBe(programs.length);
  linkPackages(project.dir);
  for (const { file, source } of programs) writeFileSync(path.join(project.dir, 'src', file), source);
  const run = await runNode(TSC, ['-p', 'tsconfig.json', '--noEmit'], {
    cwd: project.dir,
    timeoutMs: 120_000,
  });
  expect(run.stdout + run.stderr).toBe('');
  expect(run.code).toBe(0);
}, 150_000);
