import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../factories/cli';
import { copyBuildContext, runContextStages } from '../factories/docker-build';
import { installedPackages, refusingSomeOf } from '../factories/installed-packages';
import { listeningUrl, stopGroup } from '../factories/npm-start';
import { waitUntilReady } from '../factories/sample';
import { runWithoutTerminal, spawnWithoutTerminal, startProjectCommands } from '../factories/start-block';

// What a new user does, end to end: README.md's "Start a project" block, read from the README and
// run line by line as written, in shells with no terminal (keel from a tarball packed from this
// checkout, everything else from the registry); then the project's own commands. Each step's wall
// time is printed at the end.
const run = promisify(execFile);
const [PREPARE_CHECKOUT = '', ...USER_COMMANDS] = startProjectCommands();
// The first command that serves runs in the background until it answers; the others run to their end.
const SERVES = /^npm (?:run )?start$/;
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

// One of the README's commands, in the project, as a user's shell without a terminal runs it.
async function readmeCommand(command: string, timeoutMs: number): Promise<string> {
  const result = await timed(command, () =>
    runWithoutTerminal(command, { cwd: project, env: projectEnv(), timeoutMs }),
  );
  if (result.code !== 0)
    throw new Error(`${command} exited ${result.code}:\n${result.stdout}${result.stderr}`);
  return `${result.stdout}${result.stderr}`;
}

beforeAll(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), 'keel-first-'));
  // The checkout's own step: the suite installed and built it already, so it only packs it, into a
  // directory that stands for the checkout; the block's other lines run there as written.
  expect(PREPARE_CHECKOUT).toBe('npm install && npm run build && npm pack');
  const checkout = path.join(parent, 'checkout');
  await mkdir(checkout);
  await timed('npm pack', () =>
    run('npm', ['pack', '--silent', '--pack-destination', checkout], { cwd: REPO_ROOT }),
  );
  const tarballs = await readdir(checkout);
  const untilServing = USER_COMMANDS.slice(
    0,
    USER_COMMANDS.findIndex((line) => SERVES.test(line)),
  );
  expect(untilServing.join('\n')).toContain(`./${tarballs[0]}`);
  // One shell for the lines before the server, so a `cd` holds for the next ones; it says where it ended.
  const result = await timed(untilServing.join(' ; '), () =>
    runWithoutTerminal(`set -e\n${untilServing.join('\n')}\npwd`, {
      cwd: checkout,
      env: projectEnv(),
      timeoutMs: 900_000,
    }),
  );
  if (result.code !== 0) {
    throw new Error(`the README's commands exited ${result.code}:\n${result.stdout}${result.stderr}`);
  }
  // The block's `npm install` ran at npm's own log level: its warnings are kept for the tests to read.
  installOutput = `${result.stdout}${result.stderr}`;
  project = result.stdout.trim().split('\n').at(-1) as string;
  await access(path.join(project, 'package.json'));
}, 960_000);

afterAll(async () => {
  process.stdout.write(`new project, step by step:\n  ${times.join('\n  ')}\n`);
  await rm(parent, { recursive: true, force: true });
}, 60_000);

test("the README's npm test passes in the new project", async () => {
  const command = USER_COMMANDS.find((line) => /^npm (?:run )?test$/.test(line)) as string;
  expect(await readmeCommand(command, 240_000)).toMatch(/Tests:\s+4 passed, 4 total/);
}, 300_000);

test("the README's npm start serves on the embedded database: /health/ready answers 200", async () => {
  // Its own process group, so that the test stops npm and the node it started together.
  const npmStart = spawnWithoutTerminal(USER_COMMANDS.find((line) => SERVES.test(line)) as string, {
    cwd: project,
    env: projectEnv(),
  });
  let output = '';
  npmStart.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  npmStart.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  try {
    await timed('npm start until /health/ready 200', async () => {
      const url = await listeningUrl(npmStart, () => output, 180_000);
      await waitUntilReady(url, 60_000);
    });
    expect(output).toContain(
      `embedded PostgreSQL (PGlite), data in ${path.join(project, '.data', 'postgres')}`,
    );
  } finally {
    await stopGroup(npmStart);
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

test("the project README's npx framework make:controller Order writes the controller and registers it", async () => {
  const readme = await readFile(path.join(project, 'README.md'), 'utf8');
  expect(readme).toContain('`npx framework make:controller Order`');
  const output = await readmeCommand('npx framework make:controller Order', 60_000);
  expect(output).toContain('wrote src/http/controllers/order.ts');
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

test('after an entity is added, migration:generate registers its migration in the module as written, and the project migrates and passes its tests', async () => {
  await writeFile(
    path.join(project, 'src', 'thing.entity.ts'),
    [
      "import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';",
      '',
      "@Entity('things')",
      'export class Thing {',
      '  @PrimaryGeneratedColumn()',
      '  id!: number;',
      '',
      "  @Column({ type: 'text' })",
      '  name!: string;',
      '}',
      '',
    ].join('\n'),
  );
  // What the user edits: the entity in the DatabaseModule's options, and its import.
  const moduleFile = path.join(project, 'src', 'app.module.ts');
  const written = await readFile(moduleFile, 'utf8');
  expect(written).toContain('entities: []');
  await writeFile(
    moduleFile,
    written
      .replace("import { chooseDatabase } from './database';", "$&\nimport { Thing } from './thing.entity';")
      .replace('entities: []', 'entities: [Thing]'),
  );
  await timed('npm run build', () => inProject('npm', ['run', 'build'], 120_000));

  const generate = await timed('node dist/main.js migration:generate AddThing', () =>
    inProject(process.execPath, ['dist/main.js', 'migration:generate', 'AddThing'], 120_000),
  );
  expect(generate.stdout).toMatch(
    /^wrote src\/migrations\/\d{13}-add-thing\.ts\nedited src\/app\.module\.ts:/,
  );
  const className = /export class (AddThing\d{13})/.exec(
    await readFile(
      path.join(
        project,
        'src',
        'migrations',
        (await readdir(path.join(project, 'src', 'migrations')))[0] as string,
      ),
      'utf8',
    ),
  )?.[1];
  expect(await readFile(moduleFile, 'utf8')).toContain(
    `entities: [Thing], server, migrations: [${className}] };`,
  );

  await timed('npm run build', () => inProject('npm', ['run', 'build'], 120_000));
  const migrate = await inProject(process.execPath, ['dist/main.js', 'migrate'], 120_000);
  expect(migrate.stdout).toBe(`migrated ${className}\n`);
  const status = await inProject(process.execPath, ['dist/main.js', 'migrate:status', '--check'], 120_000);
  expect(status.stdout).toBe(`applied  ${className}\n`);
  const { stdout, stderr } = await timed('npm test with the migration', () =>
    inProject('npm', ['test'], 240_000),
  );
  expect(`${stdout}${stderr}`).toMatch(/Tests:\s+4 passed, 4 total/);
}, 600_000);
