import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FRAMEWORK, REPO_ROOT } from '../factories/cli';
import { isRunning, startDevServer, type DevServerRun } from '../factories/dev-server';
import { ESM_PROJECT_FILES } from '../factories/esm-project-files';
import { eventually } from '../factories/eventually';
import { within } from '../factories/http-client';
import { stopGroup } from '../factories/npm-start';

// `framework new --esm`: an ES module project ("type": "module") that imports keel, the CommonJS
// package, by name, and whose decorators' metadata reaches keel's one container: a service is
// injected by its type into a controller of a module of its own.
const run = promisify(execFile);
const NAME = 'esm-app';
let parent: string;
let project: string;

function projectEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DATABASE_URL|npm_)/i.test(name)),
  );
  return { ...env, PORT: '0', METRICS_PORT: '0' };
}

const inProject = (command: string, args: readonly string[], timeout: number) =>
  run(command, [...args], { cwd: project, env: projectEnv(), timeout, maxBuffer: 16 * 1024 * 1024 });

beforeAll(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), 'keel-esm-'));
  project = path.join(parent, NAME);
  await run('npm', ['pack', '--silent', '--pack-destination', parent], { cwd: REPO_ROOT });
  const tarball = (await readdir(parent)).find((file) => file.endsWith('.tgz')) as string;
  await run(process.execPath, [FRAMEWORK, 'new', NAME, '--esm', '--keel', path.join(parent, tarball)], {
    cwd: parent,
  });
  for (const [file, text] of Object.entries(ESM_PROJECT_FILES)) {
    await run('mkdir', ['-p', path.dirname(path.join(project, file))]);
    await writeFile(path.join(project, file), text);
  }
  const appModule = path.join(project, 'src', 'app.module.ts');
  const source = await readFile(appModule, 'utf8');
  await writeFile(
    appModule,
    source
      .replace(
        "import { HomeController } from './http/controllers/home.js';",
        "import { HomeController } from './http/controllers/home.js';\nimport { GreetingModule } from './greetings/greeting.module.js';",
      )
      .replace('HealthModule.forRoot(),', 'HealthModule.forRoot(),\n    GreetingModule,'),
  );
  await inProject('npm', ['install', '--no-audit', '--no-fund'], 600_000);
}, 660_000);

afterAll(async () => {
  if (parent) await rm(parent, { recursive: true, force: true });
}, 60_000);

test('the project is an ES module project on nodenext, importing its own files by their .js names', async () => {
  const pkg = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as { type: string };
  expect(pkg.type).toBe('module');
  const tsconfig = await readFile(path.join(project, 'tsconfig.json'), 'utf8');
  expect(tsconfig).toContain('"module": "nodenext"');
  const main = await readFile(path.join(project, 'src', 'main.ts'), 'utf8');
  expect(main).toContain("import { AppModule } from './app.module.js';");
  expect(main).toContain("import { createApplication } from 'keel';");
});

test('npm test passes in the ES module project', async () => {
  const { stdout, stderr } = await inProject('npm', ['test'], 240_000);
  expect(`${stdout}${stderr}`).toMatch(/Tests:\s+5 passed, 5 total/);
}, 300_000);

test('npm start serves as ES modules: the injected service answers, keel loaded once', async () => {
  const npmStart = spawn('npm', ['start'], {
    cwd: project,
    env: projectEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  npmStart.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  npmStart.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  try {
    const url = await eventually(
      () => {
        const found = /"url":"(http:\/\/[^"]+)","msg":"listening"/.exec(output)?.[1];
        if (!found) throw new Error(`not listening yet; output:\n${output}`);
        return found;
      },
      { within: 180_000 },
    );
    const res = await fetch(`${url}/greetings/grace`);
    expect(await res.json()).toEqual({ greeting: 'hello, grace' });
    // The compiled output is ES modules: an import of keel by name, no require of it.
    const compiled = await readFile(path.join(project, 'dist', 'greetings', 'greeting.service.js'), 'utf8');
    expect(compiled).toMatch(/^import \{[^}]*Injectable[^}]*\} from 'keel';/m);
    expect(compiled).not.toContain('require(');
  } finally {
    await stopGroup(npmStart);
  }
}, 300_000);

test('an ES module import and a require of keel are the same instance, so its metadata is one', async () => {
  const { stdout } = await inProject(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import { Module } from 'keel'; import { createTestingApplication } from 'keel/testing';" +
        "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" +
        "console.log(Module === require('keel').Module, createTestingApplication === require('keel/testing').createTestingApplication)",
    ],
    30_000,
  );
  expect(stdout.trim()).toBe('true true');
});

describe('framework dev in the ES module project', () => {
  const controllerFile = () => path.join(project, 'src', 'greetings', 'greeting.controller.ts');
  const GREETING = 'return { greeting: this.greetings.greet(name) };';
  let original: string;
  let dev: DevServerRun;

  // The answer of the application framework dev started last (a new one listens on a new port).
  async function latest(route: string, init?: RequestInit): Promise<unknown> {
    const url = dev.latestUrl();
    if (!url) throw new Error(`no application listening yet; output:\n${dev.output()}`);
    return (await fetch(`${url}${route}`, init)).json();
  }

  const editGreeting = (extra: string) =>
    writeFile(
      controllerFile(),
      original.replace(GREETING, `return { greeting: this.greetings.greet(name), ${extra} };`),
    );

  beforeAll(async () => {
    original = await readFile(controllerFile(), 'utf8');
    dev = startDevServer(project, projectEnv());
  });

  afterAll(async () => {
    await dev.kill();
    await writeFile(controllerFile(), original);
  }, 30_000);

  test('npm run dev runs it; after each edit of a controller the new code answers (reload time printed)', async () => {
    const pkg = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.dev).toBe('framework dev');
    // Injected by its type: the compiled controller kept its decorator metadata.
    await eventually(async () => expect(await latest('/greetings/ada')).toEqual({ greeting: 'hello, ada' }), {
      within: 120_000,
    });
    expect(dev.output()).toContain('types are not checked on reload');
    const times: number[] = [];
    for (let round = 1; round <= 5; round += 1) {
      const startedAt = performance.now();
      await editGreeting(`round: ${round}`);
      await eventually(
        async () => expect(await latest('/greetings/ada')).toEqual({ greeting: 'hello, ada', round }),
        { within: 20_000, every: 10 },
      );
      times.push(performance.now() - startedAt);
    }
    const median = [...times].sort((a, b) => a - b)[2] as number;
    process.stdout.write(
      `framework dev, write to new answer: ${times.map(Math.round).join(', ')} ms; median ${Math.round(median)} ms\n`,
    );
  }, 240_000);

  test('a syntax error prints the compiler message, file and line, and the application is back once it is fixed', async () => {
    const running = dev.applicationPids().at(-1) as number;
    const broken = original.replace('return { path: ctx.req.path };', 'return { path: ctx.req.path ;');
    const line = broken.split('\n').findIndex((text) => text.includes('ctx.req.path ;')) + 1;
    await writeFile(controllerFile(), broken);
    await eventually(() => expect(dev.output()).toContain('do not compile'), { within: 20_000 });
    expect(dev.output()).toContain('Syntax Error');
    expect(dev.output()).toContain('src/greetings/greeting.controller.ts:');
    expect(dev.output()).toMatch(new RegExp(`\\n\\s*${line} \\|\\s+return \\{ path: ctx\\.req\\.path ;`));
    expect(isRunning(running)).toBe(false);
    expect(isRunning(dev.pid)).toBe(true);

    await editGreeting('fixed: true');
    await eventually(
      async () => expect(await latest('/greetings/ada')).toEqual({ greeting: 'hello, ada', fixed: true }),
      { within: 20_000 },
    );
  }, 60_000);

  test('the embedded database keeps its rows across restarts', async () => {
    const body = `kept-${Date.now()}`;
    // Retried until the database has connected, in the background, after the application listens.
    await eventually(
      async () => expect(await latest(`/notes/${body}`, { method: 'POST' })).toEqual({ created: body }),
      {
        within: 60_000,
      },
    );
    const before = dev.applicationPids().at(-1) as number;
    await editGreeting("after: 'restart'");
    await eventually(
      async () =>
        expect(await latest('/greetings/ada')).toEqual({ greeting: 'hello, ada', after: 'restart' }),
      { within: 20_000 },
    );
    expect(dev.applicationPids().at(-1)).not.toBe(before);
    expect(isRunning(before)).toBe(false);
    await eventually(
      async () => expect(await latest('/notes')).toEqual({ notes: expect.arrayContaining([body]) }),
      {
        within: 60_000,
      },
    );
  }, 180_000);

  test('SIGINT stops the application and the watcher, and framework dev exits 0', async () => {
    const started = dev.applicationPids();
    expect(started.length).toBeGreaterThan(5);
    process.kill(dev.pid, 'SIGINT');
    expect(await within(dev.exited, 30_000, 'framework dev to exit')).toBe(0);
    expect(started.filter(isRunning)).toEqual([]);
  }, 60_000);
});

test('make:controller in the ES module project imports the controller by its .js name, and the project builds', async () => {
  const { stdout } = await inProject('npx', ['framework', 'make:controller', 'Order', '--api'], 60_000);
  expect(stdout).toContain('wrote src/http/controllers/order.ts');
  const appModule = await readFile(path.join(project, 'src', 'app.module.ts'), 'utf8');
  expect(appModule).toContain("import { OrderController } from './http/controllers/order.js';");
  // nodenext refuses a relative import without its suffix (TS2835): the build is the proof.
  await inProject('npm', ['run', 'build'], 120_000);
}, 200_000);

test('a migration made through the entry point is imported by its .js name, and migrate applies it', async () => {
  const created = await inProject(process.execPath, ['dist/main.js', 'migration:create', 'AddNote'], 120_000);
  expect(created.stdout).toMatch(/^wrote src\/migrations\/\d{13}-add-note\.ts\nedited src\/app\.module\.ts:/);
  const appModule = await readFile(path.join(project, 'src', 'app.module.ts'), 'utf8');
  const className = /import \{ (AddNote\d{13}) \} from '\.\/migrations\/\d{13}-add-note\.js';/.exec(
    appModule,
  )?.[1];
  expect(appModule).toContain(`migrations: [${className}]`);
  await inProject('npm', ['run', 'build'], 120_000);
  const migrate = await inProject(process.execPath, ['dist/main.js', 'migrate'], 120_000);
  expect(migrate.stdout).toBe(`migrated ${className}\n`);
  const status = await inProject(process.execPath, ['dist/main.js', 'migrate:status', '--check'], 120_000);
  expect(status.stdout).toBe(`applied  ${className}\n`);
}, 400_000);
