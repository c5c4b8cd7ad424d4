import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, runNode } from '../factories/cli';

// A user's project, checked with skipLibCheck off: every declaration keel publishes, and every
// declaration those import, must resolve from what installing the packed package brings.
const TSCONFIG = {
  compilerOptions: {
    target: 'es2023',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
  },
  include: ['src'],
};

const HANDLERS = `import { Controller, Get, createApplication, Module, type Context } from 'keel';
import { createTestingApplication, type InjectResponse } from 'keel/testing';

@Controller('orders')
class OrderController {
  @Get(':id')
  show(ctx: Context) {
    ctx.header('X-Host', ctx.req.get('host') ?? '');
    return { id: ctx.param('id'), ip: ctx.req.ip };
  }

  @Get()
  index(ctx: Context) {
    return ctx.req.notAnExpressMember();
  }
}

@Module({ controllers: [OrderController] })
class AppModule {}

void createApplication(AppModule).then((app) => app.listen(0));
void createTestingApplication(AppModule)
  .overrideProvider(OrderController)
  .useValue({ show: () => ({ id: '1', ip: undefined }) })
  .boot({ logger: false })
  .then((app) => app.inject({ method: 'GET', url: '/orders/1' }))
  .then((res: InjectResponse) => res.json<{ id: string }>().id.toUpperCase());
`;

const TSC = path.join(REPO_ROOT, 'node_modules', '@typescript', 'native', 'bin', 'tsc');
let project: string;

beforeAll(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'keel-types-'));
  execFileSync('npm', ['pack', '--silent', '--pack-destination', project], { cwd: REPO_ROOT, stdio: 'pipe' });
  const tarball = readdirSync(project).find((file) => file.endsWith('.tgz'));
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `./${tarball}`], {
    cwd: project,
    stdio: 'pipe',
    timeout: 240_000,
  });
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  execFileSync('mkdir', ['-p', path.join(project, 'src')]);
  writeFileSync(path.join(project, 'src', 'main.ts'), HANDLERS);
}, 300_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

test('a project that installs the packed package type-checks ctx.req against Express and resolves keel/testing: the one mistake is the only error', async () => {
  const run = await runNode(TSC, ['-p', 'tsconfig.json'], { cwd: project, timeoutMs: 120_000 });
  const errors = run.stdout.split('\n').filter((line) => line.includes('error TS'));
  expect(errors).toEqual([
    expect.stringMatching(
      /src\/main\.ts\(\d+,\d+\): error TS2339: Property 'notAnExpressMember' does not exist on type 'Request/,
    ),
  ]);
  expect(run.code).not.toBe(0);
}, 120_000);
