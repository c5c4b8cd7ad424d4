import path from 'node:path';
import { runNode } from '../factories/cli';

const APP = path.join('test', 'fixtures', 'apps', 'command-app.mjs');

describe('Application.run', () => {
  test('runs the command argv names, then shuts the application down quietly and exits', async () => {
    const run = await runNode(APP, ['routes']);
    expect(run).toMatchObject({
      code: 0,
      stdout: 'GET  /hello  hello  hello\n',
      stderr: 'onApplicationShutdown ran\n',
    });
  });

  test('a command runs no onApplicationBootstrap hook: that is work for serving, which runs it', async () => {
    const command = await runNode(APP, ['routes']);
    expect(command.stderr).not.toContain('onApplicationBootstrap ran');

    const served = await runNode(APP, [], { env: { PORT: '0', STOP_AFTER_LISTEN: '1' } });
    expect(served.code).toBe(0);
    expect(served.stderr).toContain('onApplicationBootstrap ran');
  });

  test('a command does not wait out shutdownDelayMs: nothing was ever served', async () => {
    const run = await runNode(APP, ['routes'], { env: { SHUTDOWN_DELAY_MS: '5000' } });
    expect(run.code).toBe(0);
    expect(run.ms).toBeLessThan(3000);
  });

  test('help names the entry point as the program', async () => {
    const run = await runNode(APP, ['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: node ${APP} [options] [command]`);
    expect(run.stdout).toContain('routes');
  });

  test('a shutdown hook that throws after a command exits 1 with its reason', async () => {
    const run = await runNode(APP, ['routes'], { env: { HOOK_FAILS: '1' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the pool would not close');
  });

  test('a first word that names no command fails fast: exit 2, the commands listed, nothing served', async () => {
    const run = await runNode(APP, ['make:contoller', 'Order'], {
      env: { PORT: '0' },
      timeoutMs: 3000,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'make:contoller'");
    expect(run.stderr).toContain('(Did you mean make:controller?)');
    expect(run.stderr).toContain(
      'commands: make:controller, routes, new, dev, openapi, migration:create, migration:generate, migrate, migrate:rollback, migrate:status, jobs:status, help',
    );
    expect(run.stderr).toContain('onApplicationShutdown ran');
    expect(run.stdout).toBe('');
  });

  test('openapi prints the document of the routes, then shuts down', async () => {
    const run = await runNode(APP, ['openapi'], { env: { OPENAPI: '1' } });
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout) as { openapi: string; info: object; paths: object };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'Hello', version: '1.0.0' });
    expect(Object.keys(document.paths)).toEqual(['/hello']);
    expect(run.stderr).toBe('onApplicationShutdown ran\n');
  });

  test('openapi without OpenApiModule exits 1, saying what to import', async () => {
    const run = await runNode(APP, ['openapi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_NO_OPENAPI_MODULE');
    expect(run.stderr).toContain("OpenApiModule.forRoot({ title: 'Orders', version: '1.0.0' })");
    expect(run.stdout).toBe('');
  });

  test.each([[[]], [['--verbose']]])('with no arguments or only options (%j) it listens', async (args) => {
    const run = await runNode(APP, args, { env: { PORT: '0', STOP_AFTER_LISTEN: '1' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"url":"http://');
  });
});
