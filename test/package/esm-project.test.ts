import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FRAMEWORK, REPO_ROOT } from '../factories/cli';
import { eventually } from '../factories/eventually';
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

const FILES: Record<string, string> = {
  'src/greetings/greeting.service.ts': `import { Injectable } from 'keel';

@Injectable()
export class GreetingService {
  greet(name: string): string {
    return \`hello, \${name}\`;
  }
}
`,
  'src/greetings/greeting.controller.ts': `import { Controller, Get, Param } from 'keel';
import type { Context } from 'keel';
import { GreetingService } from './greeting.service.js';

@Controller('/greetings')
export class GreetingController {
  constructor(private readonly greetings: GreetingService) {}

  @Get(':name') show(@Param('name') name: string) {
    return { greeting: this.greetings.greet(name) };
  }

  @Get() index(ctx: Context) {
    return { path: ctx.req.path };
  }
}
`,
  'src/greetings/greeting.module.ts': `import { Module } from 'keel';
import { GreetingController } from './greeting.controller.js';
import { GreetingService } from './greeting.service.js';

@Module({ controllers: [GreetingController], providers: [GreetingService] })
export class GreetingModule {}
`,
  'test/greetings.test.ts': `import 'reflect-metadata';
import { createTestingApplication, type TestingApplication } from 'keel/testing';
import { AppModule } from '../src/app.module.js';

let app: TestingApplication;
beforeAll(async () => {
  app = await createTestingApplication(AppModule).withTestDatabase().boot({ logger: false });
}, 60_000);
afterAll(() => app.close());

test('the service is injected by its type', async () => {
  const res = await app.inject({ method: 'GET', url: '/greetings/ada' });
  expect(res.json()).toEqual({ greeting: 'hello, ada' });
});
`,
};

beforeAll(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), 'keel-esm-'));
  project = path.join(parent, NAME);
  await run('npm', ['pack', '--silent', '--pack-destination', parent], { cwd: REPO_ROOT });
  const tarball = (await readdir(parent)).find((file) => file.endsWith('.tgz')) as string;
  await run(process.execPath, [FRAMEWORK, 'new', NAME, '--esm', '--keel', path.join(parent, tarball)], {
    cwd: parent,
  });
  for (const [file, text] of Object.entries(FILES)) {
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
