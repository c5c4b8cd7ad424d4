import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  appModuleProject,
  appModuleSource,
  removeScratchProjects,
  runFramework,
  scratchProject,
  type ProgramRun,
} from '../factories/cli';

const CONTROLLER = path.join('src', 'http', 'controllers', 'order.ts');

afterAll(removeScratchProjects);

function read(root: string, file: string): string {
  return readFileSync(path.join(root, file), 'utf8');
}

function expectExit(run: ProgramRun, code: number): void {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code, stderr: expect.any(String) });
}

describe('framework make:controller', () => {
  test('writes the controller under src/http/controllers and registers it in src/app.module.ts', async () => {
    const root = appModuleProject();
    const run = await runFramework(['make:controller', 'Order', '--root', root]);
    expectExit(run, 0);
    expect(read(root, CONTROLLER)).toContain("@Resource('orders')\nexport class OrderController {");
    expect(read(root, 'src/app.module.ts')).toBe(
      "import { Module } from 'keel';\nimport { OrderController } from './http/controllers/order';\n\n" +
        '@Module({\n  controllers: [OrderController],\n})\nexport class AppModule {}\n',
    );
    expect(run.stdout).toBe(
      'wrote src/http/controllers/order.ts\nwrote views/orders/create.html\nwrote views/orders/edit.html\n' +
        'edited src/app.module.ts:\n' +
        "@@ line 2\n+import { OrderController } from './http/controllers/order';\n" +
        '@@ line 4\n-  controllers: [],\n+  controllers: [OrderController],\n',
    );
  });

  test('refuses to overwrite a form page it would write: exit 1, nothing written', async () => {
    const root = appModuleProject();
    mkdirSync(path.join(root, 'views', 'orders'), { recursive: true });
    writeFileSync(path.join(root, 'views', 'orders', 'edit.html'), 'my page');

    const run = await runFramework(['make:controller', 'Order', '--root', root]);
    expectExit(run, 1);
    expect(run.stderr).toContain('views/orders/edit.html already exists');
    expect(existsSync(path.join(root, CONTROLLER))).toBe(false);
    expect(readFileSync(path.join(root, 'views', 'orders', 'edit.html'), 'utf8')).toBe('my page');
  });

  test('writes under the project root when it has no src/', async () => {
    const root = scratchProject({ 'app.module.ts': appModuleSource() });
    expectExit(await runFramework(['make:controller', 'Order', '--plain', '--root', root]), 0);
    expect(read(root, 'http/controllers/order.ts')).toContain("@Controller('orders')");
    expect(read(root, 'app.module.ts')).toContain('controllers: [OrderController]');
  });

  test('refuses to overwrite an existing file: exit 1, the file byte for byte as it was', async () => {
    const root = appModuleProject();
    expectExit(await runFramework(['make:controller', 'Order', '--root', root]), 0);
    const mine = '// my own work\n\u00e9\r\n';
    writeFileSync(path.join(root, CONTROLLER), mine);
    const moduleBefore = read(root, 'src/app.module.ts');

    const run = await runFramework(['make:controller', 'Order', '--api', '--root', root]);
    expectExit(run, 1);
    expect(run.stderr).toContain('src/http/controllers/order.ts already exists');
    expect(run.stderr).toContain('--force');
    expect(readFileSync(path.join(root, CONTROLLER))).toEqual(Buffer.from(mine));
    expect(read(root, 'src/app.module.ts')).toBe(moduleBefore);
  });

  test('--force overwrites, and says the module registers the class already', async () => {
    const root = appModuleProject();
    expectExit(await runFramework(['make:controller', 'Order', '--root', root]), 0);
    const moduleBefore = read(root, 'src/app.module.ts');

    const run = await runFramework(['make:controller', 'Order', '--api', '--force', '--root', root]);
    expectExit(run, 0);
    expect(read(root, CONTROLLER)).toContain("@ApiResource('orders')");
    expect(run.stdout).toContain('src/app.module.ts already registers OrderController');
    expect(read(root, 'src/app.module.ts')).toBe(moduleBefore);
  });

  test('--dry-run prints the file and the module edit, and writes nothing', async () => {
    const root = appModuleProject();
    const run = await runFramework(['make:controller', 'Order', '--dry-run', '--root', root]);
    expectExit(run, 0);
    expect(run.stdout).toContain(
      "would write src/http/controllers/order.ts:\nimport { Resource, type Context } from 'keel';",
    );
    expect(run.stdout).toContain(
      "would edit src/app.module.ts:\n@@ line 2\n+import { OrderController } from './http/controllers/order';",
    );
    expect(run.stdout).toContain('+  controllers: [OrderController],');
    expect(existsSync(path.join(root, 'src', 'http'))).toBe(false);
    expect(read(root, 'src/app.module.ts')).toBe(appModuleSource());
  });

  test.each(['', '../x', 'a/../../b', '9lives', 'order controller', 'class', 'delete'])(
    'an invalid name (%j) exits 2 saying what a valid name looks like, and writes nothing',
    async (name) => {
      const root = appModuleProject();
      const run = await runFramework(['make:controller', name, '--root', root]);
      expectExit(run, 2);
      expect(run.stderr).toContain('cannot name a controller');
      expect(run.stderr).toContain('starts with a letter and has only letters and digits');
      expect(existsSync(path.join(root, 'src', 'http'))).toBe(false);
      expect(existsSync(path.join(root, 'x'))).toBe(false);
      expect(read(root, 'src/app.module.ts')).toBe(appModuleSource());
    },
  );

  test.each(['pipe', 'ignore'] as const)(
    'with no name and stdin not a terminal (%s) prints the usage and exits 2 at once',
    async (stdin) => {
      const run = await runFramework(['make:controller', '--root', appModuleProject()], {
        stdin,
        timeoutMs: 5000,
      });
      expectExit(run, 2);
      expect(run.stderr).toContain('Usage: framework make:controller [options] [name]');
      expect(run.ms).toBeLessThan(2000);
    },
  );

  test('prints the lines to add where it cannot edit the module safely, and leaves it as it was', async () => {
    const unusual =
      "import { Module } from 'keel';\nimport { shared } from './shared';\n\n@Module({ controllers: [...shared] })\nexport class AppModule {}\n";
    const root = scratchProject({ 'src/app.module.ts': unusual });
    const run = await runFramework(['make:controller', 'Order', '--root', root]);
    expectExit(run, 0);
    expect(run.stdout).toContain('could not register OrderController in src/app.module.ts safely');
    expect(run.stdout).toContain(
      "\nimport { OrderController } from './http/controllers/order';\ncontrollers: [OrderController],\n",
    );
    expect(read(root, 'src/app.module.ts')).toBe(unusual);
    expect(existsSync(path.join(root, CONTROLLER))).toBe(true);
  });

  test('--module names the root module, relative to --root; a missing one exits 2 before writing', async () => {
    const root = scratchProject({ 'src/core/root.module.ts': appModuleSource() });
    const missing = await runFramework([
      'make:controller',
      'Order',
      '--root',
      root,
      '--module',
      'src/nope.ts',
    ]);
    expectExit(missing, 2);
    expect(missing.stderr).toContain('src/nope.ts');
    expect(existsSync(path.join(root, CONTROLLER))).toBe(false);

    const run = await runFramework([
      'make:controller',
      'Order',
      '--root',
      root,
      '--module',
      'src/core/root.module.ts',
    ]);
    expectExit(run, 0);
    expect(read(root, 'src/core/root.module.ts')).toContain(
      "import { OrderController } from '../http/controllers/order';",
    );
  });

  test('imports with .js where the module imports its own files with .js, as ECMAScript modules must', async () => {
    const imports = "import { Module } from 'keel';\nimport { HomeController } from './home.controller.js';";
    const root = scratchProject({
      'src/app.module.ts': appModuleSource('HomeController').replace(
        "import { Module } from 'keel';",
        imports,
      ),
    });
    expectExit(await runFramework(['make:controller', 'Order', '--root', root]), 0);
    expect(read(root, 'src/app.module.ts')).toContain(
      "import { HomeController } from './home.controller.js';\nimport { OrderController } from './http/controllers/order.js';\n",
    );
  });

  test('--api and --plain together are a usage mistake', async () => {
    expectExit(
      await runFramework(['make:controller', 'Order', '--api', '--plain', '--root', appModuleProject()]),
      2,
    );
  });
});

describe('framework', () => {
  test.each([
    [['--help']],
    [['make:controller', '--help']],
    [['routes', '--help']],
    [['help', 'make:controller']],
  ])('%j prints help and exits 0', async (args) => {
    const run = await runFramework(args);
    expectExit(run, 0);
    expect(run.stdout).toMatch(/^Usage: framework /);
  });

  test('--version prints the package version', async () => {
    const { version } = JSON.parse(
      readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'),
    ) as {
      version: string;
    };
    const run = await runFramework(['--version']);
    expect(run.stdout).toBe(`${version}\n`);
  });

  test('an unknown command exits 2', async () => {
    const run = await runFramework(['make:contoller', 'Order']);
    expectExit(run, 2);
    expect(run.stderr).toContain("unknown command 'make:contoller'");
    expect(run.stderr).toContain(
      'commands: make:controller, routes, new, dev, openapi, migration:create, migration:generate, migrate, migrate:rollback, migrate:status, jobs:status, help',
    );
  });

  test.each(['routes', 'openapi', 'migrate', 'migrate:status', 'jobs:status'])(
    '%s on its own exits 2, pointing at the application entry point',
    async (command) => {
      const run = await runFramework([command]);
      expectExit(run, 2);
      expect(run.stderr).toContain(`node dist/main.js ${command}`);
    },
  );
});
