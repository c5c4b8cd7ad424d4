import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appModuleProject, removeScratchProjects, runFramework, scratchProject } from '../factories/cli';

// Paths the user got wrong: each is a plain message and an exit code, never a stack trace, and
// nothing is written anywhere.
afterAll(removeScratchProjects);

const STACK_LINE = /^\s+at /m;

// A project whose src/http/controllers is a link to `target` (a path inside the project).
function projectWithLinkedControllers(target: string): string {
  const root = appModuleProject();
  mkdirSync(path.join(root, 'src', 'http'));
  symlinkSync(path.join(root, target), path.join(root, 'src', 'http', 'controllers'), 'dir');
  return root;
}

describe('framework make:controller with paths that do not fit', () => {
  test('a --root that does not exist exits 2 and creates nothing', async () => {
    const parent = scratchProject({});
    const root = path.join(parent, 'typo');
    const run = await runFramework(['make:controller', 'Order', '--root', root]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--root ${root} is not a directory`);
    expect(existsSync(root)).toBe(false);
  });

  test('a --root that is a file exits 2 without a stack trace', async () => {
    const root = path.join(scratchProject({ 'notes.txt': 'mine\n' }), 'notes.txt');
    const run = await runFramework(['make:controller', 'Order', '--root', root]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not a directory');
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  test('a --module that is a directory exits 2 without a stack trace, before writing', async () => {
    const root = appModuleProject();
    const run = await runFramework(['make:controller', 'Order', '--root', root, '--module', 'src']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the module file src given with --module is not a file');
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(existsSync(path.join(root, 'src', 'http'))).toBe(false);
  });

  test('a controllers directory that is a broken link exits 1 with the reason, not a stack trace', async () => {
    const root = projectWithLinkedControllers('gone');
    const run = await runFramework(['make:controller', 'Order', '--root', root]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(path.join(root, 'src', 'http', 'controllers'));
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(readdirSync(root).sort()).toEqual(['node_modules', 'src']);
  });

  test('a controllers directory that is a link to a directory is written through', async () => {
    const root = projectWithLinkedControllers('src/shared-controllers');
    mkdirSync(path.join(root, 'src', 'shared-controllers'));
    writeFileSync(path.join(root, 'src', 'shared-controllers', 'home.ts'), '// mine\n');
    const run = await runFramework(['make:controller', 'Order', '--root', root]);
    expect(run.code).toBe(0);
    expect(readdirSync(path.join(root, 'src', 'shared-controllers')).sort()).toEqual(['home.ts', 'order.ts']);
  });
});
