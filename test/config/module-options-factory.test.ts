import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { DataSource } from 'typeorm';
import { ConfigModule, DatabaseModule, InjectionToken, MetricsModule, Module, type Application } from 'keel';
import { MetricsListener } from '../../src/observability/metrics-listener';
import { bootApp } from '../factories/app';
import { HOST } from '../factories/gates';
import { captureLog } from '../factories/log';
import { postgresUrl } from '../factories/test-databases';

jest.setTimeout(30_000);

class FactoryConfig {
  @IsString() KEEL_OPTIONS_FACTORY_DATABASE_URL = 'postgres://nowhere.invalid/none';
  @IsInt() @Min(0) @Max(65535) KEEL_OPTIONS_FACTORY_METRICS_PORT = 9464;
}

const NO_ENV_FILE = path.join(__dirname, 'no-such.env');
const configModule = ConfigModule.forRoot({ schema: FactoryConfig, envFile: NO_ENV_FILE });

const apps: Application[] = [];
afterEach(async () => {
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
  delete process.env.KEEL_OPTIONS_FACTORY_DATABASE_URL;
  delete process.env.KEEL_OPTIONS_FACTORY_METRICS_PORT;
});

async function boot(imports: Parameters<typeof Module>[0]['imports']): Promise<Application> {
  @Module({ imports })
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
  const deadline = Date.now() + 15_000;
  while (!dataSource.isInitialized && Date.now() < deadline) await sleep(50);
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
