import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, type MigrationInterface } from 'typeorm';
import { DatabaseModule, HealthModule, Module, type Application } from 'keel';
import { bootApp } from '../factories/app';
import { eventually } from '../factories/eventually';
import { gate } from '../factories/gates';
import { closeAll, dataSourceFor, serve, type HealthApp } from '../factories/health';
import { postgresUrl } from '../factories/test-databases';

jest.setTimeout(15_000);

afterEach(() => closeAll());

async function serveModule(metadata: Parameters<typeof Module>[0], options = {}): Promise<HealthApp> {
  @Module(metadata)
  class AppModule {}
  const app: Application = await bootApp(AppModule, { handleSignals: false, ...options });
  return serve(app);
}

describe('HealthModule', () => {
  test('finds the DataSource DatabaseModule provides, at check time', async () => {
    const health = await serveModule({
      imports: [DatabaseModule.forRoot({ type: 'postgres', url: postgresUrl() }), HealthModule.forRoot()],
    });

    expect(await health.probe('/health')).toMatchObject({
      status: 200,
      json: { status: 'ok' },
      cacheControl: 'no-store',
    });
    expect(await health.probe()).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
  });

  test('finds a DataSource the application provides itself', async () => {
    const dataSource = dataSourceFor(postgresUrl());
    const health = await serveModule({
      imports: [HealthModule.forRoot()],
      providers: [{ provide: DataSource, useValue: dataSource }],
    });

    expect(await health.probe()).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
    expect(dataSource.isInitialized).toBe(true);
  });

  test('uses options.dataSource when given', async () => {
    const dataSource = dataSourceFor(postgresUrl());
    const health = await serveModule({
      imports: [HealthModule.forRoot({ dataSource: async () => dataSource })],
    });

    expect(await health.probe()).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
  });

  test('without any DataSource it boots, is alive, and not ready, saying what is missing', async () => {
    const health = await serveModule({ imports: [HealthModule.forRoot()] });

    expect((await health.probe('/health')).status).toBe(200);
    const answer = await health.probe();
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({
      status: 'error',
      db: expect.stringContaining('no provider for DataSource'),
    });
  });

  test('is not ready while DatabaseModule is still running the migrations', async () => {
    const migrationsTableName = `keel_slow_migrations_${process.pid}_${Date.now()}`;
    class SlowMigration1700000000000 implements MigrationInterface {
      async up(): Promise<void> {
        await sleep(1500);
      }
      async down(): Promise<void> {}
    }
    const health = await serveModule({
      imports: [
        DatabaseModule.forRoot({
          type: 'postgres',
          url: postgresUrl(),
          migrations: [SlowMigration1700000000000],
          migrationsRun: true,
          migrationsTableName,
        }),
        HealthModule.forRoot({ timeoutMs: 300 }),
      ],
    });
    const dataSource = health.app.get(DataSource);
    // keel runs the migrations once TypeORM has initialised the DataSource.
    await eventually(() => dataSource.isInitialized, {
      within: 5000,
      every: 10,
      what: 'the DataSource initialised',
    });

    const duringMigrations = await health.probe();
    await eventually(async () => expect(await health.probe()).toMatchObject({ status: 200 }), {
      within: 5000,
      what: 'a ready answer once the migrations have run',
    });
    await dataSource.query(`DROP TABLE "${migrationsTableName}"`);

    expect(duringMigrations).toMatchObject({ status: 503, json: { db: 'migrating' } });
  });

  test('serves under options.path', async () => {
    const health = await serveModule({
      imports: [HealthModule.forRoot({ path: '/status', dataSource: () => undefined })],
    });

    expect(await health.probe('/status')).toMatchObject({ status: 200, json: { status: 'ok' } });
    expect(await health.probe('/status/ready')).toMatchObject({ status: 503 });
    expect((await health.probe('/health')).status).toBe(404);
  });

  test('answers 503 "shutting down" from the moment a shutdown starts, while liveness stays 200', async () => {
    const dataSource = dataSourceFor(postgresUrl());
    const health = await serveModule(
      { imports: [HealthModule.forRoot({ dataSource: () => dataSource })] },
      { shutdownDelayMs: 400 },
    );
    expect((await health.probe()).status).toBe(200);

    const closing = health.app.close();
    const [readiness, liveness] = await Promise.all([health.probe(), health.probe('/health')]);
    await closing;

    expect(readiness).toMatchObject({
      status: 503,
      json: { status: 'error', db: 'shutting down' },
      cacheControl: 'no-store',
    });
    expect(liveness).toMatchObject({ status: 200, json: { status: 'ok' } });
  });

  test('a probe already running when the shutdown starts answers 503 "shutting down"', async () => {
    const dataSource = dataSourceFor(postgresUrl());
    await dataSource.initialize();
    // The probe holds in its DataSource lookup until the shutdown has started.
    const probeStarted = gate();
    const shutdownStarted = gate();
    const health = await serveModule(
      {
        imports: [
          HealthModule.forRoot({
            dataSource: async () => {
              probeStarted.open();
              await shutdownStarted.opened;
              return dataSource;
            },
          }),
        ],
      },
      { shutdownDelayMs: 400 },
    );

    const probing = health.probe();
    await probeStarted.opened;
    const closing = health.app.close();
    shutdownStarted.open();
    const answer = await probing;
    await closing;

    expect(answer).toMatchObject({ status: 503, json: { status: 'error', db: 'shutting down' } });
  });

  test.each([
    [{ timeoutMs: 0 }, 'health timeoutMs'],
    [{ timeoutMs: -5 }, 'health timeoutMs'],
    [{ exposeReason: 'no' as unknown as boolean }, 'health exposeReason'],
    [{ path: 42 as unknown as string }, 'health path'],
  ])('rejects the option %p at boot', (options, name) => {
    expect(() => HealthModule.forRoot(options)).toThrow(
      expect.objectContaining({ code: 'E_INVALID_OPTION', message: expect.stringContaining(name) }),
    );
  });
});
