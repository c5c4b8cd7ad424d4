import { DatabaseModule, HealthModule, MetricsModule, Module, type Application } from 'keel';
import type { DataSource, DataSourceOptions } from 'typeorm';
import { DataSource as DataSourceClass } from 'typeorm';
import { bootApp } from '../factories/app';
import { HOST } from '../factories/gates';
import { closeAll, dataSourceFor } from '../factories/health';
import { scrape, scrapeUntil, valueOf, type Sample } from '../factories/metrics';
import { describeNeeding } from '../factories/requirements';
import { closedPort, mariadbMissing, mariadbUrl, postgresUrl } from '../factories/test-databases';

jest.setTimeout(30_000);

const opened: Application[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
  await closeAll();
});

async function serve(root: object): Promise<{ app: Application; metricsUrl: string }> {
  const app = await bootApp(root as never, { handleSignals: false });
  opened.push(app);
  const { url } = await app.listen(0, HOST);
  return { app, metricsUrl: `${url}/metrics` };
}

const readiness = (samples: readonly Sample[], check: string) =>
  valueOf(samples, 'keel_readiness', { check });
const pool = (samples: readonly Sample[], state: string) =>
  valueOf(samples, 'keel_database_pool_connections', { state });

describe('keel_readiness', () => {
  test('is 1 for the database and each named check that answers, 0 for a failing one, as readiness changes', async () => {
    let isCacheDown = false;
    @Module({
      imports: [
        DatabaseModule.forRoot({ type: 'postgres', url: postgresUrl() }),
        HealthModule.forRoot({
          checks: {
            cache: () => {
              if (isCacheDown) throw new Error('cache down');
            },
            search: { check: () => Promise.reject(new Error('search down')), optional: true },
          },
        }),
        MetricsModule.forRoot(),
      ],
    })
    class AppModule {}
    const { metricsUrl } = await serve(AppModule);

    const healthy = await scrapeUntil(
      metricsUrl,
      'the database ready',
      (samples) => readiness(samples, 'db') === 1,
    );
    expect(readiness(healthy, 'db')).toBe(1);
    expect(readiness(healthy, 'cache')).toBe(1);
    // An optional check that fails leaves readiness 200, and still shows as 0.
    expect(readiness(healthy, 'search')).toBe(0);

    isCacheDown = true;
    const failing = await scrape(metricsUrl);
    expect(readiness(failing, 'cache')).toBe(0);
    expect(readiness(failing, 'db')).toBe(1);

    isCacheDown = false;
    expect(readiness(await scrape(metricsUrl), 'cache')).toBe(1);
  });

  test('is 0 for a database that does not answer', async () => {
    const down = dataSourceFor(`postgres://postgres@127.0.0.1:${await closedPort()}/test`);
    @Module({ imports: [HealthModule.forRoot({ dataSource: () => down }), MetricsModule.forRoot()] })
    class AppModule {}
    const { metricsUrl } = await serve(AppModule);
    const samples = await scrape(metricsUrl);
    expect(readiness(samples, 'db')).toBe(0);
    expect(samples.filter((sample) => sample.name === 'keel_readiness')).toHaveLength(1);
  });

  test('has no samples without HealthModule', async () => {
    @Module({ imports: [MetricsModule.forRoot()] })
    class AppModule {}
    const { metricsUrl } = await serve(AppModule);
    const samples = await scrape(metricsUrl);
    expect(samples.filter((sample) => sample.name.startsWith('keel_'))).toEqual([]);
  });
});

/**
 * The pool's counts as the driver keeps them: a connection taken and held counts as not idle, and a
 * query that finds every connection taken counts as waiting until one is released.
 */
function poolScenario(options: () => DataSourceOptions & { poolSize: number }): void {
  test('keel_database_pool_connections follows the pool: total, idle, and queries waiting', async () => {
    @Module({
      imports: [DatabaseModule.forRoot(options), MetricsModule.forRoot()],
    })
    class AppModule {}
    const { app, metricsUrl } = await serve(AppModule);
    const dataSource = app.get<DataSource>(DataSourceClass);
    const connected = await scrapeUntil(
      metricsUrl,
      'a pooled connection',
      (samples) => (pool(samples, 'total') ?? 0) >= 1,
    );
    expect(pool(connected, 'total')).toBeGreaterThanOrEqual(1);
    expect(pool(connected, 'waiting')).toBe(0);

    const runners = [dataSource.createQueryRunner(), dataSource.createQueryRunner()];
    await Promise.all(runners.map((runner) => runner.connect()));
    const waiting = dataSource.query('SELECT 1');
    const exhausted = await scrapeUntil(
      metricsUrl,
      'a query waiting',
      (samples) => pool(samples, 'waiting') === 1,
    );
    expect({
      total: pool(exhausted, 'total'),
      idle: pool(exhausted, 'idle'),
      waiting: pool(exhausted, 'waiting'),
    }).toEqual({
      total: 2,
      idle: 0,
      waiting: 1,
    });

    await Promise.all(runners.map((runner) => runner.release()));
    await waiting;
    const released = await scrapeUntil(
      metricsUrl,
      'both connections idle',
      (samples) => pool(samples, 'idle') === 2,
    );
    expect({
      total: pool(released, 'total'),
      idle: pool(released, 'idle'),
      waiting: pool(released, 'waiting'),
    }).toEqual({
      total: 2,
      idle: 2,
      waiting: 0,
    });
  });
}

describe('on PostgreSQL (pg)', () => {
  poolScenario(() => ({ type: 'postgres', url: postgresUrl(), poolSize: 2 }));
});

describeNeeding(mariadbMissing(), 'on MariaDB (mysql2)', () => {
  poolScenario(() => ({ type: 'mariadb', url: mariadbUrl() ?? '', poolSize: 2 }));
});

test('keel_database_pool_connections has no samples without DatabaseModule', async () => {
  @Module({ imports: [MetricsModule.forRoot()] })
  class AppModule {}
  const { metricsUrl } = await serve(AppModule);
  expect(pool(await scrape(metricsUrl), 'total')).toBeUndefined();
});
