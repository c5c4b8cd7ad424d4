import { symlinkSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  FRAMEWORK,
  REPO_ROOT,
  SCRATCH_APP,
  removeScratchProjects,
  runFramework,
  scratchProject,
} from '../factories/cli';
import { isRunning, startDevServer, type DevServerRun } from '../factories/dev-server';
import { eventually } from '../factories/eventually';
import { within } from '../factories/http-client';

// `framework dev` in a CommonJS application without a database (the ES module project of
// test/package/ runs it on the embedded one): the repository's @swc/core stands for the project's.
const CONTROLLER = `import { Controller, Get } from 'keel';

@Controller('/hello')
export class HelloController {
  @Get() index() {
    return { answer: 'first' };
  }
}
`;

function devProject(): string {
  const root = scratchProject({
    ...SCRATCH_APP,
    'src/app.module.ts': `import { Module } from 'keel';\nimport { HelloController } from './hello.controller';\n\n@Module({ controllers: [HelloController] })\nexport class AppModule {}\n`,
    'src/hello.controller.ts': CONTROLLER,
  });
  symlinkSync(path.join(REPO_ROOT, 'node_modules', '@swc'), path.join(root, 'node_modules', '@swc'), 'dir');
  return root;
}

afterAll(removeScratchProjects);

test('framework dev where there is no src/main.ts exits 2, naming what it looks for', async () => {
  const run = await runFramework(['dev', '--root', scratchProject({ 'package.json': '{}' })]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('E_DEV_NO_ENTRY');
  expect(run.stderr).toContain('src/main.ts');
});

test('framework dev in a project without @swc/core exits 1, naming the package to install', async () => {
  const run = await runFramework(['dev', '--root', scratchProject(SCRATCH_APP)]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('E_DEV_COMPILER_MISSING');
  expect(run.stderr).toContain('Fix: npm install --save-dev @swc/core@');
});

describe('framework dev in a CommonJS project', () => {
  let root: string;
  let dev: DevServerRun;

  async function answer(): Promise<unknown> {
    const url = dev.latestUrl();
    if (!url) throw new Error(`not listening yet; output:\n${dev.output()}`);
    return (await fetch(`${url}/hello`)).json();
  }

  beforeAll(() => {
    root = devProject();
    dev = startDevServer(root, { ...process.env, PORT: '0' }, FRAMEWORK);
  });
  afterAll(() => dev.kill(), 20_000);

  test('serves, compiles the CommonJS the package says, and answers with the edited code', async () => {
    await eventually(async () => expect(await answer()).toEqual({ answer: 'first' }), { within: 30_000 });
    expect(await readFile(path.join(root, 'dist', 'hello.controller.js'), 'utf8')).toContain(
      'require("keel")',
    );
    await writeFile(path.join(root, 'src', 'hello.controller.ts'), CONTROLLER.replace("'first'", "'second'"));
    await eventually(async () => expect(await answer()).toEqual({ answer: 'second' }), { within: 20_000 });
  }, 60_000);

  test('a removed source file takes its output with it', async () => {
    await writeFile(path.join(root, 'src', 'extra.ts'), 'export const extra = 1;\n');
    await eventually(() => readFile(path.join(root, 'dist', 'extra.js'), 'utf8'), { within: 20_000 });
    await rm(path.join(root, 'src', 'extra.ts'));
    await eventually(() => expect(readFile(path.join(root, 'dist', 'extra.js'))).rejects.toThrow('ENOENT'), {
      within: 20_000,
    });
  }, 60_000);

  test('SIGTERM stops the application and framework dev exits 0', async () => {
    const started = dev.applicationPids();
    process.kill(dev.pid, 'SIGTERM');
    expect(await within(dev.exited, 30_000, 'framework dev to exit')).toBe(0);
    expect(started.filter(isRunning)).toEqual([]);
  }, 60_000);
});
