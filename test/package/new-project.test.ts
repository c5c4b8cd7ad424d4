import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { access, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FRAMEWORK, REPO_ROOT } from '../factories/cli';
import { copyBuildContext, runContextStages } from '../factories/docker-build';
import { installedPackages, refusingSomeOf } from '../factories/installed-packages';
import { listeningUrl } from '../factories/npm-start';
import { waitUntilReady } from '../factories/sample';
import { within } from '../factories/http-client';

// What a new user does, end to end: `framework new`, one `npm install` (keel from the packed
// checkout, everything else from the registry), then the project's own commands. Each step's wall
// time is printed at the end.
const run = promisify(execFile);
const NAME = 'first-app';
const times: string[] = [];
let parent: string;
let project: string;
let installOutput: string;

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  const result = await work();
  times.push(`${step}: ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  return result;
}

// The project's commands without the suite's database: a new project runs on its embedded one.
function projectEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_URL|npm_)/i.test(name)),
  );
  return { ...env, PORT: '0', METRICS_PORT: '0' };
}

function inProject(command: string, args: readonly string[], timeoutMs: number) {
  return run(command, [...args], {
    cwd: project,
    env: projectEnv(),
    timeout: timeoutMs,
    maxBuffer: 16 * 1024 * 1024,
  });
}

beforeAll(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), 'keel-first-'));
  project = path.join(parent, NAME);
  await timed('npm pack', () =>
    run('npm', ['pack', '--silent', '--pack-destination', parent], { cwd: REPO_ROOT }),
  );
  const tarball = (await readdir(parent)).find((file) => file.endsWith('.tgz')) as string;
  await timed('framework new', () =>
    run(process.execPath, [FRAMEWORK, 'new', NAME, '--keel', path.join(parent, tarball)], { cwd: parent }),
  );
  // At npm's own log level, so that its warnings are kept for the tests to read.
  const install = await timed('npm install', () =>
    inProject('npm', ['install', '--no-audit', '--no-fund'], 600_000),
  );
  installOutput = `${install.stdout}${install.stderr}`;
}, 660_000);

afterAll(async () => {
  process.stdout.write(`new project, step by step:\n  ${times.join('\n  ')}\n`);
  await rm(parent, { recursive: true, force: true });
}, 60_000);

test('npm test passes in the new project', async () => {
  const { stdout, stderr } = await timed('npm test', () => inProject('npm', ['test'], 240_000));
  expect(`${stdout}${stderr}`).toMatch(/Tests:\s+4 passed, 4 total/);
}, 300_000);

test('npm start serves on the embedded database: /health/ready answers 200', async () => {
  // Its own process group, so that the test stops npm and the node it started together.
  const npmStart = spawn('npm', ['start'], {
    cwd: project,
    env: projectEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  npmStart.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  npmStart.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const ended = new Promise<number | null>((resolve) => npmStart.once('close', resolve));
  try {
    await timed('npm start until /health/ready 200', async () => {
      const url = await listeningUrl(npmStart, () => output, 180_000);
      await waitUntilReady(url, 60_000);
    });
    expect(output).toContain(
      `embedded PostgreSQL (PGlite), data in ${path.join(project, '.data', 'postgres')}`,
    );
  } finally {
    process.kill(-(npmStart.pid as number), 'SIGTERM');
    await within(ended, 30_000, 'npm start to stop').catch(() =>
      process.kill(-(npmStart.pid as number), 'SIGKILL'),
    );
  }
}, 300_000);

test("the project's directory alone, as a Docker build context elsewhere, installs and builds through its Dockerfile's steps", async () => {
  const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'keel-image-'));
  try {
    const lock = await readFile(path.join(project, 'package-lock.json'), 'utf8');
    expect(lock).toContain('"keel": "file:vendor/');
    expect(lock).not.toContain(parent);
    const context = path.join(elsewhere, 'context');
    await copyBuildContext(project, context);
    const [build, dependencies] = await timed("the Dockerfile's npm ci and build, elsewhere", () =>
      runContextStages(context, path.join(elsewhere, 'stages'), projectEnv()),
    );
    await access(path.join(build as string, 'dist', 'main.js'));
    await access(path.join(dependencies as string, 'node_modules', 'keel', 'dist', 'index.js'));
  } finally {
    await rm(elsewhere, { recursive: true, force: true });
  }
}, 900_000);

test('npx framework make:controller Order writes the controller and registers it', async () => {
  const { stdout } = await timed('npx framework make:controller Order', () =>
    inProject('npx', ['framework', 'make:controller', 'Order'], 60_000),
  );
  expect(stdout).toContain('wrote src/http/controllers/order.ts');
  const appModule = await readFile(path.join(project, 'src', 'app.module.ts'), 'utf8');
  expect(appModule).toContain('controllers: [HomeController, OrderController],');
}, 90_000);

test('after make:controller the project still builds and passes its tests', async () => {
  await timed('npm run build', () => inProject('npm', ['run', 'build'], 120_000));
  const { stdout, stderr } = await timed('npm test again', () => inProject('npm', ['test'], 240_000));
  expect(`${stdout}${stderr}`).toMatch(/Tests:\s+4 passed, 4 total/);
}, 400_000);

test('npm install warns of no package that refuses the running Node', () => {
  expect(installOutput).not.toContain('EBADENGINE');
});

// npm picks, within each range, the newest version that accepts the Node it runs on (on Node 24,
// versions of @inquirer's packages that refuse Node 20): what holds on every Node is what keel and
// the project pin themselves, and the Node they are installed on must accept everything installed.
test("keel's engines and the project's hold for every package they pin, and the running Node for every package installed", async () => {
  const engines = async (dir: string) =>
    (JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { engines: { node: string } })
      .engines.node;
  const keel = path.join(project, 'node_modules', 'keel');
  expect(refusingSomeOf(await engines(keel), installedPackages(keel, { directOnly: true }))).toEqual([]);
  expect(
    refusingSomeOf(await engines(project), installedPackages(project, { withDev: true, directOnly: true })),
  ).toEqual([]);
  expect(refusingSomeOf(process.versions.node, installedPackages(project, { withDev: true }))).toEqual([]);
});

test('a project that imports JobsModule without installing pg-boss stops at boot, naming the package and version to install', async () => {
  await expect(access(path.join(project, 'node_modules', 'pg-boss'))).rejects.toThrow('ENOENT');
  // Inside the project, so that `keel` and pg-boss are looked up as its own code would look them up.
  const script = path.join(project, 'jobs-without-pg-boss.js');
  await writeFile(
    script,
    [
      "require('reflect-metadata');",
      "const { DatabaseModule, JobsModule, Module, createApplication } = require('keel');",
      'class AppModule {}',
      "const database = DatabaseModule.forRoot({ type: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' });",
      'Module({ imports: [database, JobsModule.forRoot()] })(AppModule);',
      'createApplication(AppModule, { logger: false, handleSignals: false }).then((app) => app.close());',
    ].join('\n'),
  );
  const failed = await inProject(process.execPath, [script], 30_000)
    .then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    .finally(() => rm(script));
  const { devDependencies } = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toContain('E_JOBS_PG_BOSS_MISSING: JobsModule runs its jobs on pg-boss');
  expect(failed?.stderr).toContain(`Fix: npm install pg-boss@${devDependencies['pg-boss']}`);
}, 60_000);
