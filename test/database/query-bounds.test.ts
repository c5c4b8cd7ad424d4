import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Pool } from 'pg';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { DatabaseModule, Module, type Application } from 'keel';
import { isDatabaseUnavailable, QueryTimeoutError } from '../../src/database/database-unavailable';
import { bootApp } from '../factories/app';
import { eventually } from '../factories/eventually';
import { captureLog } from '../factories/log';
import { PostgresProxy } from '../factories/postgres-proxy';
import { postgresUrl } from '../factories/test-databases';

jest.setTimeout(30_000);

const run = promisify(execFile);

const apps: Application[] = [];
const proxies: PostgresProxy[] = [];
afterEach(async () => {
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

/** A connected DataSource made by DatabaseModule for `url`, with `queryTimeoutMs`. */
async function connectedDataSource(url: string, queryTimeoutMs: number): Promise<DataSource> {
  @Module({ imports: [DatabaseModule.forRoot({ type: 'postgres', url }, { queryTimeoutMs })] })
  class AppModule {}
  const app = await bootApp(AppModule, { handleSignals: false, logger: captureLog().logger });
  apps.push(app);
  const dataSource = app.get(DataSource);
  await eventually(() => dataSource.isInitialized, { within: 10_000, what: 'the database connection' });
  await dataSource.query('SELECT 1');
  return dataSource;
}

function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

async function proxy(): Promise<PostgresProxy> {
  const started = await PostgresProxy.start(postgresUrl());
  proxies.push(started);
  return started;
}

describe('queries of DatabaseModule on PostgreSQL', () => {
  test('a query the server never answers fails at queryTimeoutMs, and its connection leaves the pool', async () => {
    const database = await proxy();
    const dataSource = await connectedDataSource(database.url, 300);
    expect(poolOf(dataSource).totalCount).toBe(1);

    await database.setMode('hold-queries');
    const startedAt = performance.now();
    const failure = await dataSource.query('SELECT 1').catch((error: unknown) => error);
    const elapsedMs = performance.now() - startedAt;

    expect(failure).toMatchObject({ driverError: expect.any(QueryTimeoutError) });
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(elapsedMs).toBeGreaterThanOrEqual(290);
    expect(elapsedMs).toBeLessThan(1000);
    expect(poolOf(dataSource).totalCount).toBe(0);

    await database.setMode('forward');
    await expect(dataSource.query('SELECT 2 AS two')).resolves.toEqual([{ two: 2 }]);
  });

  test('a slow statement is cancelled by the server too (statement_timeout), so its work stops', async () => {
    const dataSource = await connectedDataSource(postgresUrl(), 300);
    const marker = `keel-slow-${process.pid}-${Date.now()}`;

    const failure = await dataSource
      .query(`SELECT pg_sleep(5), '${marker}'`)
      .catch((error: unknown) => error);
    const stillRunning = () =>
      dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`,
        [marker],
      );

    expect(isDatabaseUnavailable(failure)).toBe(true);
    // The server's cancel may land a moment after the client gave up; a statement left running
    // would still be there until pg_sleep's 5 s, far past this deadline.
    await eventually(async () => expect(await stillRunning()).toEqual([{ n: 0 }]), {
      within: 1000,
      what: 'the slow statement to stop on the server',
    });
    expect(await dataSource.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '300ms' }]);
  });

  test('migrations are not bounded by queryTimeoutMs, and request queries are bounded again after them', async () => {
    const migrationsTableName = `keel_query_bounds_migrations_${process.pid}`;
    class SlowMigration1700000000000 implements MigrationInterface {
      async up(runner: QueryRunner): Promise<void> {
        await runner.query('SELECT pg_sleep(1.2)');
      }
      async down(): Promise<void> {}
    }
    @Module({
      imports: [
        DatabaseModule.forRoot(
          {
            type: 'postgres',
            url: postgresUrl(),
            migrations: [SlowMigration1700000000000],
            migrationsRun: true,
            migrationsTableName,
          },
          { queryTimeoutMs: 300, attemptTimeoutMs: 10_000 },
        ),
      ],
    })
    class AppModule {}
    const log = captureLog();
    const app = await bootApp(AppModule, { handleSignals: false, logger: log.logger });
    apps.push(app);
    const dataSource = app.get(DataSource);
    try {
      // A migration cut by queryTimeoutMs would fail the attempt: a retry would come first.
      const outcome = await eventually(
        () =>
          log
            .entries()
            .find(
              ({ msg }) => msg === 'database connected' || msg === 'database connection failed; retrying',
            ) ?? false,
        { within: 10_000, what: 'the first attempt to connect, migrations included, to end' },
      );
      expect(outcome.msg).toBe('database connected');
      const applied = (await dataSource.query(`SELECT name FROM ${migrationsTableName}`)) as unknown[];

      expect(applied).toEqual([{ name: 'SlowMigration1700000000000' }]);
      // Every connection the pool holds now answers as a request's: bounded on the server too.
      const timeouts = await Promise.all(
        Array.from({ length: 4 }, () => dataSource.query('SHOW statement_timeout') as Promise<unknown>),
      );
      for (const timeout of timeouts) expect(timeout).toEqual([{ statement_timeout: '300ms' }]);
      const slow = await dataSource.query('SELECT pg_sleep(1)').catch((error: unknown) => error);
      expect(isDatabaseUnavailable(slow)).toBe(true);
    } finally {
      await dataSource.query(`DROP TABLE IF EXISTS ${migrationsTableName}`);
    }
  });

  test('a statement_timeout given in extra is kept', async () => {
    @Module({
      imports: [
        DatabaseModule.forRoot(
          { type: 'postgres', url: postgresUrl(), extra: { statement_timeout: 1234 } },
          { queryTimeoutMs: 300 },
        ),
      ],
    })
    class AppModule {}
    const app = await bootApp(AppModule, { handleSignals: false });
    apps.push(app);
    const dataSource = app.get(DataSource);
    await eventually(() => dataSource.isInitialized, { within: 10_000, what: 'the database connection' });

    expect(await dataSource.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '1234ms' }]);
  });

  test("the pool's sockets have TCP keep-alive on", async () => {
    const database = await proxy();
    await connectedDataSource(database.url, 5000);

    // ss shows a keep-alive timer on an idle socket that has SO_KEEPALIVE set.
    const { stdout } = await run('ss', ['-tno', 'state', 'established', `( dport = :${database.port} )`]);
    const sockets = stdout.split('\n').filter((line) => line.includes(`:${database.port}`));

    expect(sockets).toHaveLength(1);
    expect(sockets[0]).toContain('timer:(keepalive');
  });
});
