import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Min } from 'class-validator';
import { ConfigModule, Controller, Get, Injectable, Module, createApplication, loadConfig } from 'keel';
import { createTestingApplication } from 'keel/testing';

class Env {
  @IsInt() @Min(1) PORT = 8080;
  @IsOptional() @IsUrl({ require_tld: false, protocols: ['postgres'] }) DATABASE_URL?: string;
  @IsIn(['development', 'test', 'production']) NODE_ENV = 'development';
  @IsBoolean() CACHE = true;
  @IsOptional() @IsString() @Matches(/^sk_[a-z0-9]{8}$/) API_TOKEN?: string;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'keel-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function envFile(content: string): string {
  const file = path.join(dir, '.env');
  writeFileSync(file, content);
  return file;
}

test('with no variables and no .env file, the defaults hold', () => {
  const env = loadConfig(Env, { env: {}, envFile: path.join(dir, 'missing.env') });
  expect(env).toBeInstanceOf(Env);
  expect({ ...env }).toEqual({
    PORT: 8080,
    DATABASE_URL: undefined,
    NODE_ENV: 'development',
    CACHE: true,
    API_TOKEN: undefined,
  });
});

test('values are converted to the declared types', () => {
  const env = loadConfig(Env, {
    env: { PORT: '9090', CACHE: 'false', NODE_ENV: 'test' },
    envFile: path.join(dir, 'x'),
  });
  expect(env.PORT).toBe(9090);
  expect(env.CACHE).toBe(false);
  expect(env.NODE_ENV).toBe('test');
});

test('.env is read, and the environment wins over it', () => {
  const file = envFile('PORT=7070\nNODE_ENV=production\n# a comment\nAPI_TOKEN="sk_abcd1234"\n');
  const env = loadConfig(Env, { env: { NODE_ENV: 'test' }, envFile: file });
  expect(env.PORT).toBe(7070);
  expect(env.NODE_ENV).toBe('test');
  expect(env.API_TOKEN).toBe('sk_abcd1234');
});

test('an env file that exists but cannot be read is an error naming it', () => {
  expect(() => loadConfig(Env, { env: {}, envFile: dir })).toThrow(
    expect.objectContaining({ code: 'E_UNREADABLE_ENV_FILE', message: expect.stringContaining(dir) }),
  );
});

test('the instance cannot be changed', () => {
  const env = loadConfig(Env, { env: {}, envFile: path.join(dir, 'x') });
  expect(Object.isFrozen(env)).toBe(true);
  expect(() => {
    (env as { PORT: number }).PORT = 1;
  }).toThrow(TypeError);
  expect(env.PORT).toBe(8080);
});

test('E_INVALID_CONFIG lists every failing variable with its rule, and none of their values', () => {
  const secret = 'sk_LEAKED-SECRET-value';
  const bad = { PORT: 'eighty', NODE_ENV: 'staging-xyz', API_TOKEN: secret, CACHE: 'true' };
  const load = () => loadConfig(Env, { env: bad, envFile: path.join(dir, 'x') });
  expect(load).toThrow(expect.objectContaining({ code: 'E_INVALID_CONFIG' }));
  expect(load).toThrow(/\(3 variables\)/);
  expect(load).toThrow(/PORT: .*integer/);
  expect(load).toThrow(/NODE_ENV: .*one of the following values/);
  expect(load).toThrow(/API_TOKEN: .*must match/);
  for (const absent of ['CACHE', 'eighty', 'staging-xyz', secret, 'LEAKED']) {
    expect(load).toThrow(expect.objectContaining({ message: expect.not.stringContaining(absent) }));
  }
});

@Injectable()
class PortReporter {
  constructor(readonly env: Env) {}
}

@Controller('settings')
class SettingsController {
  constructor(private readonly env: Env) {}
  @Get() show() {
    return { port: this.env.PORT, cache: this.env.CACHE };
  }
}

@Module({ providers: [PortReporter], exports: [PortReporter] })
class FeatureModule {}

test('ConfigModule is global: the schema is injectable by its class in a module that does not import it', async () => {
  const saved = { ...process.env };
  process.env.PORT = '3131';
  process.env.CACHE = '0';
  try {
    @Module({
      imports: [ConfigModule.forRoot({ schema: Env, envFile: path.join(dir, 'none.env') }), FeatureModule],
      controllers: [SettingsController],
    })
    class AppModule {}
    const app = await createTestingApplication(AppModule).boot({ logger: false });
    expect(app.get(PortReporter).env).toBe(app.get(Env));
    expect((await app.inject('/settings')).json()).toEqual({ port: 3131, cache: false });
    await app.close();
  } finally {
    process.env = saved;
  }
});

test('invalid configuration stops the boot with E_INVALID_CONFIG', async () => {
  @Module({ imports: [ConfigModule.forRoot({ schema: Env, envFile: envFile('PORT=0\n') })] })
  class AppModule {}
  await expect(createApplication(AppModule, { logger: false })).rejects.toMatchObject({
    code: 'E_INVALID_CONFIG',
    message: expect.stringMatching(/PORT: PORT must not be less than 1/),
  });
});

test('a test can override the configuration like any provider', async () => {
  @Module({ imports: [ConfigModule.forRoot({ schema: Env })], controllers: [SettingsController] })
  class AppModule {}
  const app = await createTestingApplication(AppModule)
    .overrideProvider(Env)
    .useValue({ PORT: 1, CACHE: false })
    .boot({ logger: false });
  expect((await app.inject('/settings')).json()).toEqual({ port: 1, cache: false });
  await app.close();
});
