import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { IsBoolean, IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import {
  Broadcast,
  ConfigModule,
  Controller,
  DatabaseModule,
  Get,
  HealthModule,
  InjectionToken,
  MetricsModule,
  Module,
  RateLimit,
  RateLimitModule,
  RealtimeModule,
  SessionModule,
  type Application,
  type Class,
  type ModuleMetadata,
  type Context,
} from 'keel';
import { MetricsListener } from '../../src/observability/metrics-listener';
import { bootApp } from '../factories/app';
import { HOST } from '../factories/gates';
import { captureLog } from '../factories/log';
import { postgresUrl } from '../factories/test-databases';
import { eventually } from '../factories/eventually';

jest.setTimeout(30_000);

class FactoryConfig {
  @IsString() KEEL_OPTIONS_FACTORY_DATABASE_URL = 'postgres://nowhere.invalid/none';
  @IsInt() @Min(0) @Max(65535) KEEL_OPTIONS_FACTORY_METRICS_PORT = 9464;
  @IsBoolean() KEEL_OPTIONS_FACTORY_EXPOSE_REASON = true;
  @IsString() KEEL_OPTIONS_FACTORY_SESSION_SECRET = '';
  @IsInt() @Min(1) KEEL_OPTIONS_FACTORY_WRITES = 100;
  @IsIn(['postgres', 'redis']) KEEL_OPTIONS_FACTORY_REALTIME_VIA: 'postgres' | 'redis' = 'postgres';
}

@Controller('visits')
class VisitController {
  @Get() count(ctx: Context) {
    const visits = Number(ctx.session.visits ?? 0) + 1;
    ctx.session.visits = visits;
    return { visits };
  }
}

@Controller('writes')
class WriteController {
  @RateLimit('writes') @Get() write() {
    return { written: true };
  }
}

const NO_ENV_FILE = path.join(__dirname, 'no-such.env');
const configModule = ConfigModule.forRoot({ schema: FactoryConfig, envFile: NO_ENV_FILE });

const apps: Application[] = [];
afterEach(async () => {
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
  for (const name of Object.keys(new FactoryConfig())) Reflect.deleteProperty(process.env, name);
});

async function boot(imports: ModuleMetadata['imports'], controllers: Class[] = []): Promise<Application> {
  @Module({ imports, controllers })
  class AppModule {}
  const app = await bootApp(AppModule, { handleSignals: false, logger: captureLog().logger });
  apps.push(app);
  return app;
}

test('DatabaseModule connects where the injected configuration says', async () => {
  process.env.KEEL_OPTIONS_FACTORY_DATABASE_URL = postgresUrl();
  const app = await boot([
    configModule,
    DatabaseModule.forRoot({
      inject: [FactoryConfig],
      useFactory: (config: FactoryConfig) => ({
        type: 'postgres',
        url: config.KEEL_OPTIONS_FACTORY_DATABASE_URL,
      }),
    }),
  ]);
  const dataSource = app.get(DataSource);
  expect(dataSource.options).toMatchObject({ url: postgresUrl() });
  await app.listen(0, HOST);
  // It connects in the background once the application serves.
  await eventually(() => dataSource.isInitialized, { within: 15_000, what: 'the database connection' });
  await expect(dataSource.query('select 1 as one')).resolves.toEqual([{ one: 1 }]);
});

test('a factory whose inject token nothing provides stops the boot naming DatabaseModule and the token', async () => {
  const MISSING = new InjectionToken<string>('MISSING_SETTINGS');
  const booting = boot([
    DatabaseModule.forRoot({ inject: [MISSING], useFactory: (url: string) => ({ type: 'postgres', url }) }),
  ]);
  await expect(booting).rejects.toMatchObject({ code: 'E_UNKNOWN_DEPENDENCY' });
  await expect(booting).rejects.toThrow(
    /inject\[0\] asks for InjectionToken\(MISSING_SETTINGS\), which module DatabaseModule cannot see/,
  );
});

test('a factory that throws stops the boot naming the module, the options and the reason', async () => {
  const booting = boot([
    configModule,
    MetricsModule.forRoot({
      inject: [FactoryConfig],
      useFactory: () => {
        throw new Error('no metrics settings');
      },
    }),
  ]);
  await expect(booting).rejects.toMatchObject({ code: 'E_PROVIDER_FAILED' });
  await expect(booting).rejects.toThrow(
    /creating InjectionToken\(METRICS_SETTINGS\) \(factory\) in module MetricsModule threw\.\nReason: no metrics settings/,
  );
});

test('a factory that makes an invalid option stops the boot naming the option', async () => {
  const booting = boot([MetricsModule.forRoot({ useFactory: () => ({ port: -1 }) })]);
  await expect(booting).rejects.toThrow(/the option metrics port is -1: expected a port number/);
});

test('MetricsModule serves on the port the configuration names, not on the application’s', async () => {
  process.env.KEEL_OPTIONS_FACTORY_METRICS_PORT = '0';
  const app = await boot([
    configModule,
    MetricsModule.forRoot({
      inject: [FactoryConfig],
      useFactory: (config: FactoryConfig) => ({ port: config.KEEL_OPTIONS_FACTORY_METRICS_PORT }),
    }),
  ]);
  const { url } = await app.listen(0, HOST);
  const metricsUrl = app.get(MetricsListener).url;
  expect(metricsUrl).toBeDefined();
  expect((await fetch(String(metricsUrl))).status).toBe(200);
  expect((await fetch(`${url}/metrics`)).status).toBe(404);
});

test('MetricsModule from a factory without a port serves on the application’s listener', async () => {
  const app = await boot([
    MetricsModule.forRoot({ useFactory: async () => ({ path: '/internal/metrics' }) }),
  ]);
  const { url } = await app.listen(0, HOST);
  expect(app.get(MetricsListener).url).toBeUndefined();
  expect((await fetch(`${url}/internal/metrics`)).status).toBe(200);
});

test('HealthModule hides the database’s reason when the configuration says so, under its fixed path', async () => {
  process.env.KEEL_OPTIONS_FACTORY_EXPOSE_REASON = 'false';
  const app = await boot([
    configModule,
    HealthModule.forRoot({
      path: '/status',
      inject: [FactoryConfig],
      useFactory: (config: FactoryConfig) => ({
        exposeReason: config.KEEL_OPTIONS_FACTORY_EXPOSE_REASON,
        dataSource: () => new DataSource({ type: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' }),
        checks: { upstream: () => Promise.reject(new Error('upstream refused')) },
      }),
    }),
  ]);
  const { url } = await app.listen(0, HOST);
  const ready = await fetch(`${url}/status/ready`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toEqual({ status: 'error', db: 'unavailable', upstream: 'unavailable' });
  expect((await fetch(`${url}/status`)).status).toBe(200);
  expect(app.urlFor('status.readiness')).toBe('/status/ready');
});

const sessionFromConfig = SessionModule.forRoot({
  inject: [FactoryConfig],
  secret: (config: FactoryConfig) => config.KEEL_OPTIONS_FACTORY_SESSION_SECRET,
});

test('SessionModule signs its cookies with the secret the injected configuration holds', async () => {
  process.env.KEEL_OPTIONS_FACTORY_SESSION_SECRET = 'a-long-secret-from-the-configuration';
  const app = await boot([configModule, sessionFromConfig], [VisitController]);
  const { url } = await app.listen(0, HOST);
  const first = await fetch(`${url}/visits`);
  const cookie = first.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .join('; ');
  const second = await fetch(`${url}/visits`, { headers: { cookie } });
  expect(await second.json()).toEqual({ visits: 2 });
});

test('SessionModule with an empty secret from the configuration stops the boot naming the module', async () => {
  const booting = boot([configModule, sessionFromConfig]);
  await expect(booting).rejects.toMatchObject({ code: 'E_INVALID_SESSION_SECRET' });
  await expect(booting).rejects.toThrow(/SessionModule.forRoot's secret gave no key, or an empty one/);
});

test('RateLimitModule spends the limits the injected configuration sets', async () => {
  process.env.KEEL_OPTIONS_FACTORY_WRITES = '2';
  const app = await boot(
    [
      configModule,
      RateLimitModule.forRoot({
        inject: [FactoryConfig],
        useFactory: (config: FactoryConfig) => ({
          keyPrefix: `keel-options-factory-${process.pid}`,
          limits: { writes: { limit: config.KEEL_OPTIONS_FACTORY_WRITES, windowS: 60 } },
        }),
      }),
    ],
    [WriteController],
  );
  const { url } = await app.listen(0, HOST);
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}/writes`)).status);
  expect(statuses).toEqual([200, 200, 429]);
});

test('RealtimeModule broadcasts through the Redis the injected configuration chooses', async () => {
  process.env.KEEL_OPTIONS_FACTORY_REALTIME_VIA = 'redis';
  const redis = new Redis('redis://127.0.0.1:6379');
  // Other tests share this Redis: this one's keys are its own, deleted at the end.
  const keyPrefix = `keel-options-factory:${randomBytes(4).toString('hex')}:`;
  try {
    const app = await boot([
      configModule,
      RealtimeModule.forRoot({
        inject: [FactoryConfig],
        useFactory: (config: FactoryConfig) =>
          config.KEEL_OPTIONS_FACTORY_REALTIME_VIA === 'redis'
            ? { via: 'redis', redis: () => redis, keyPrefix }
            : {},
      }),
    ]);
    const id = await app.get(Broadcast).publish('orders', 'order', { n: 1 });
    const stored = await redis.zrange(`${keyPrefix}channel:orders`, 0, -1);
    expect(stored.map((member) => (JSON.parse(member) as { id: string }).id)).toEqual([id]);
  } finally {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
});

test('RealtimeModule from a factory that makes an invalid transport stops the boot naming the option', async () => {
  const booting = boot([RealtimeModule.forRoot({ useFactory: () => ({ via: 'kafka' as 'redis' }) })]);
  await expect(booting).rejects.toThrow(
    /E_INVALID_REALTIME_TRANSPORT: RealtimeModule.forRoot: via is "kafka": expected 'postgres' or 'redis'/,
  );
});
