import { afterAll, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, runFramework } from '../factories/cli';
import { PROJECT_NAME } from '../factories/new-project';

// `framework new` as a user runs it: the compiled program, in a directory of its own.
const parents: string[] = [];
afterAll(() => parents.forEach((parent) => rmSync(parent, { recursive: true, force: true })));

function emptyParent(): string {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'keel-new-cli-'));
  parents.push(parent);
  return parent;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const keelManifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

interface ProjectManifest {
  name: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

function manifestOf(dir: string): ProjectManifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as ProjectManifest;
}

test('framework new writes the project, depends on the running keel, and prints the next two commands', async () => {
  const parent = emptyParent();
  const run = await runFramework(['new', PROJECT_NAME], { cwd: parent });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout.trim().split('\n').slice(-3)).toEqual([
    'next:',
    `  cd ${PROJECT_NAME} && npm install`,
    '  npm start',
  ]);
  const dir = path.join(parent, PROJECT_NAME);
  expect(filesUnder(dir)).toEqual([
    '.dockerignore',
    '.gitignore',
    '.swcrc',
    'Dockerfile',
    'README.md',
    'jest.config.js',
    'k8s/deployment.yaml',
    'k8s/example/secret.yaml',
    'k8s/horizontal-pod-autoscaler.yaml',
    'k8s/pod-disruption-budget.yaml',
    'k8s/service.yaml',
    'package.json',
    'src/app.module.ts',
    'src/config.ts',
    'src/database.ts',
    'src/http/controllers/home.ts',
    'src/main.ts',
    'test/app.test.ts',
    'tsconfig.build.json',
    'tsconfig.json',
    'views/errors/default.html',
  ]);
  const manifest = manifestOf(dir);
  expect(manifest.name).toBe(PROJECT_NAME);
  expect(manifest.dependencies.keel).toBe(keelManifest.version);
  expect(Object.keys(manifest.scripts)).toEqual(expect.arrayContaining(['build', 'start', 'test']));
  expect(manifest.scripts.test).toBe('npm run typecheck && jest');
  expect(readFileSync(path.join(dir, 'src', 'main.ts'), 'utf8')).toContain(
    'await app.run(process.argv, env.PORT);',
  );
  const swc = JSON.parse(readFileSync(path.join(dir, '.swcrc'), 'utf8')) as { jsc: { transform: object } };
  expect(swc.jsc.transform).toEqual({ legacyDecorator: true, decoratorMetadata: true });
  const tsconfig = JSON.parse(readFileSync(path.join(dir, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  expect(tsconfig.compilerOptions).toMatchObject({
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
  });
});

test('--keel with a version puts that version in the dependency', async () => {
  const parent = emptyParent();
  const run = await runFramework(['new', PROJECT_NAME, '--keel', '0.1.0'], { cwd: parent });
  expect(run.code).toBe(0);
  expect(manifestOf(path.join(parent, PROJECT_NAME)).dependencies.keel).toBe('0.1.0');
  expect(readFileSync(path.join(parent, PROJECT_NAME, 'Dockerfile'), 'utf8')).not.toContain('vendor');
});

test('--keel with a tarball copies it into vendor/ and pins it by a path inside the project, which the Dockerfile copies before npm ci', async () => {
  const parent = emptyParent();
  writeFileSync(path.join(parent, 'keel-0.1.0.tgz'), 'the packed keel');
  const run = await runFramework(['new', PROJECT_NAME, '--keel', './keel-0.1.0.tgz'], { cwd: parent });
  expect(run.code).toBe(0);
  const dir = path.join(parent, PROJECT_NAME);
  expect(manifestOf(dir).dependencies.keel).toBe('file:vendor/keel-0.1.0.tgz');
  expect(readFileSync(path.join(dir, 'vendor', 'keel-0.1.0.tgz'), 'utf8')).toBe('the packed keel');
  const dockerfile = readFileSync(path.join(dir, 'Dockerfile'), 'utf8');
  expect(
    dockerfile.match(/COPY package.json package-lock.json \.\/\nCOPY vendor vendor\n(?:#.*\n)*RUN npm ci/g),
  ).toHaveLength(2);
});

test('--keel naming a tarball that does not exist is a usage mistake: exit 2, nothing written', async () => {
  const parent = emptyParent();
  const run = await runFramework(['new', PROJECT_NAME, '--keel', './keel-9.9.9.tgz'], { cwd: parent });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('E_KEEL_TARBALL_MISSING: --keel ./keel-9.9.9.tgz names no file');
  expect(readdirSync(parent)).toEqual([]);
});

test('the project pins the versions keel itself is built and tested with', () => {
  const project = JSON.parse(
    readFileSync(path.join(REPO_ROOT, 'schematics', 'project', 'package.json.tpl'), 'utf8'),
  ) as ProjectManifest;
  const pins: Record<string, string> = {
    ...keelManifest.dependencies,
    ...keelManifest.devDependencies,
    typescript: keelManifest.devDependencies['@typescript/native'].replace(/^npm:typescript@/, ''),
  };
  for (const [name, version] of Object.entries({ ...project.dependencies, ...project.devDependencies })) {
    if (name !== 'keel') expect(`${name}@${version}`).toBe(`${name}@${pins[name]}`);
  }
});

// The bare package a module specifier names: `keel/testing` → `keel`, `@scope/a/b` → `@scope/a`.
function packageOf(specifier: string): string {
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

test('the project depends on every package its templates and its README import, and on the ones its validation idiom needs', () => {
  const templates = path.join(REPO_ROOT, 'schematics');
  const sources = readdirSync(templates, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.tpl'))
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
  const imported = sources.flatMap((source) =>
    [...source.matchAll(/(?:^import\s[^;]*?from|^import)\s+'([^'.][^']*)'/gm)]
      .map(([, specifier]) => specifier as string)
      .filter((specifier) => !specifier.startsWith('node:'))
      .map(packageOf),
  );
  expect(imported).toEqual(
    expect.arrayContaining(['keel', 'class-validator', 'typeorm', 'reflect-metadata']),
  );
  // A body class nests another with class-transformer's @Type(() => Line) (README, "Validation"): the
  // project imports it, and npm must find the one copy keel reads at the version keel pins.
  const needed = [...new Set([...imported, 'class-transformer', 'class-validator'])];
  const project = JSON.parse(
    readFileSync(path.join(templates, 'project', 'package.json.tpl'), 'utf8'),
  ) as ProjectManifest;
  const declared = { ...project.dependencies, ...project.devDependencies };
  expect(needed.filter((name) => !(name in declared))).toEqual([]);
  expect(project.dependencies['class-transformer']).toBe(keelManifest.dependencies['class-transformer']);
});

test('a directory that exists and is not empty is refused with exit 1, and nothing is written', async () => {
  const parent = emptyParent();
  const dir = path.join(parent, PROJECT_NAME);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'notes.txt'), 'mine');
  const run = await runFramework(['new', PROJECT_NAME], { cwd: parent });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /^E_DIRECTORY_NOT_EMPTY: keel-app exists and is not an empty directory; nothing was written\.\n/,
  );
  expect(filesUnder(dir)).toEqual(['notes.txt']);
});

test('an empty directory of that name is used', async () => {
  const parent = emptyParent();
  mkdirSync(path.join(parent, PROJECT_NAME));
  const run = await runFramework(['new', PROJECT_NAME], { cwd: parent });
  expect(run.code).toBe(0);
  expect(filesUnder(path.join(parent, PROJECT_NAME))).toContain('package.json');
});

test.each([
  ['apps/billing-api', 'billing-api'],
  ['./ledger', 'ledger'],
  ['tools/ledger/', 'ledger'],
])('framework new %j writes the project %j into that directory', async (directory, name) => {
  const parent = emptyParent();
  const run = await runFramework(['new', directory], { cwd: parent });
  const shown = directory.replace(/\/$/, '');

  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`wrote ${shown}/:`);
  expect(run.stdout).toContain(`cd ${shown} && npm install`);
  expect(manifestOf(path.join(parent, shown)).name).toBe(name);
});

test.each([
  ['apps/My_App', 'it has characters other than lower-case letters, digits and -'],
  ['apps/9lives', 'it has characters other than lower-case letters, digits and -'],
  ['..', 'it has characters other than lower-case letters, digits and -'],
  ['', 'it is empty'],
  ['My_App', 'it has characters other than lower-case letters, digits and -'],
])('framework new %j is a usage mistake: exit 2, nothing written', async (name, problem) => {
  const parent = emptyParent();
  const run = await runFramework(['new', name], { cwd: parent });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(
    `E_INVALID_PROJECT_NAME: ${JSON.stringify(name)} cannot name a project: ${problem}`,
  );
  expect(readdirSync(parent)).toEqual([]);
});

test('make:controller registers a controller in the generated app.module.ts', async () => {
  const parent = emptyParent();
  await runFramework(['new', PROJECT_NAME], { cwd: parent });
  const dir = path.join(parent, PROJECT_NAME);
  const run = await runFramework(['make:controller', 'Order'], { cwd: dir });
  expect(run.code).toBe(0);
  const appModule = readFileSync(path.join(dir, 'src', 'app.module.ts'), 'utf8');
  expect(appModule).toContain("import { OrderController } from './http/controllers/order';");
  expect(appModule).toContain('controllers: [HomeController, OrderController],');
});

test('a project that cannot be written whole (a full disk) is removed: exit 1, nothing left', async () => {
  const parent = emptyParent();
  // 512 bytes: the first small files fit, the Dockerfile does not.
  const run = await runFramework(['new', PROJECT_NAME], { cwd: parent, fileSizeLimit: 1 });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/EFBIG/);
  expect(readdirSync(parent)).toEqual([]);
});
