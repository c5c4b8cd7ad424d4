import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DatabaseModule, HealthModule, Module, type DatabaseConnectOptions } from 'keel';
import { eventually } from '../factories/eventually';
import { bootApp } from '../factories/app';
import { closeAll, serve, type HealthApp } from '../factories/health';
import { captureLog, type LogCapture, type LogEntry } from '../factories/log';
import { describeNeeding } from '../factories/requirements';
import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { isPostgresServer, mariadbUrl, postgresUrl } from '../factories/test-databases';

jest.setTimeout(60_000);

/** A server the replicas migrate against, and how its SQL makes a migration slow. */
interface MigrationDialect {
  readonly name: string;
  readonly type: 'postgres' | 'mariadb';
  /** Undefined skips the dialect: no such server here (the embedded database has one database only). */
  readonly serverUrl: string | undefined;
  sleep(seconds: number): string;
}

const DIALECTS: readonly MigrationDialect[] = [
  {
    name: 'PostgreSQL',
    type: 'postgres',
    serverUrl: isPostgresServer() ? postgresUrl() : undefined,
    sleep: (seconds) => `SELECT pg_sleep(${seconds})`,
  },
  {
    name: 'MariaDB',
    type: 'mariadb',
    serverUrl: mariadbUrl(),
    sleep: (seconds) => `SELECT SLEEP(${seconds})`,
  },
];

// Longer than the query bound the replicas get: migrations must not be cut short by it.
const QUERY_TIMEOUT_MS = 1000;
const SLOW_MIGRATION_S = 2;

/** One application of several started against the same database, with its own pool and log. */
interface Replica {
  readonly health: HealthApp;
  readonly log: LogCapture;
}

type MigrationLine = LogEntry & { readonly applied?: string[]; readonly attempt?: number };

const isUpToDate = (entry: MigrationLine) => entry.msg === 'migrations up to date';
const isWaiting = (entry: MigrationLine) =>
  entry.msg === 'waiting for the migration lock: another process is migrating';
const isWarningOrWorse = (entry: LogEntry) => entry.level >= 40;

async function startReplica(
  dialect: MigrationDialect,
  url: string,
  migrations: readonly (new () => MigrationInterface)[],
  connect: DatabaseConnectOptions = {},
): Promise<Replica> {
  const log = captureLog();
  @Module({
    imports: [
      DatabaseModule.forRoot(
        { type: dialect.type, url, migrations: [...migrations], migrationsRun: true },
        { queryTimeoutMs: QUERY_TIMEOUT_MS, ...connect },
      ),
      HealthModule.forRoot({ timeoutMs: 2000 }),
    ],
  })
  class ReplicaModule {}
  const app = await bootApp(ReplicaModule, { handleSignals: false, logger: log.logger });
  return { health: await serve(app), log };
}

/** Two migrations that record each run of theirs in keel_runs, the first slow enough to widen the race. */
function countedMigrations(dialect: MigrationDialect) {
  class CreateRuns1700000000001 implements MigrationInterface {
    async up(runner: QueryRunner): Promise<void> {
      await runner.query('CREATE TABLE keel_runs (name varchar(100) NOT NULL)');
      await runner.query(`INSERT INTO keel_runs (name) VALUES ('CreateRuns')`);
      await runner.query(dialect.sleep(SLOW_MIGRATION_S));
    }
    async down(): Promise<void> {}
  }
  class SeedRuns1700000000002 implements MigrationInterface {
    async up(runner: QueryRunner): Promise<void> {
      await runner.query(`INSERT INTO keel_runs (name) VALUES ('SeedRuns')`);
    }
    async down(): Promise<void> {}
  }
  return [CreateRuns1700000000001, SeedRuns1700000000002];
}

for (const dialect of DIALECTS) {
  describeNeeding(
    dialect.serverUrl ? undefined : `no ${dialect.name} server`,
    `migrations on connect against ${dialect.name}`,
    () => {
      let database: ScratchDatabase | undefined;
      const scratch = async () => {
        database = await createScratchDatabase(dialect.serverUrl ?? '');
        return database;
      };
      afterEach(async () => {
        await closeAll();
        await database?.drop();
        database = undefined;
      });

      test('four replicas started at once apply each migration once; the others wait for the lock, then find nothing to run', async () => {
        const db = await scratch();
        const migrations = countedMigrations(dialect);

        const replicas = await Promise.all([1, 2, 3, 4].map(() => startReplica(dialect, db.url, migrations)));
        const firstAnswers = await Promise.all(replicas.map((replica) => replica.health.probe()));
        const hadAnyFinished = replicas.some((replica) => replica.log.entries().some(isUpToDate));
        const finished = await Promise.all(
          replicas.map((replica) => replica.log.next(isUpToDate, { what: 'the migrations up to date' })),
        );
        const readyAnswers = await Promise.all(replicas.map((replica) => replica.health.probe()));

        for (const answer of firstAnswers) {
          expect(answer).toMatchObject({ status: 503, json: { status: 'error', db: 'migrating' } });
        }
        expect(hadAnyFinished).toBe(false);
        for (const answer of readyAnswers) {
          expect(answer).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
        }
        const applied = finished.map((line: MigrationLine) => line.applied ?? []);
        expect(applied.sort((a, b) => a.length - b.length)).toEqual([
          [],
          [],
          [],
          ['CreateRuns1700000000001', 'SeedRuns1700000000002'],
        ]);
        expect(await db.query('SELECT name FROM migrations ORDER BY id')).toEqual([
          { name: 'CreateRuns1700000000001' },
          { name: 'SeedRuns1700000000002' },
        ]);
        expect(await db.query('SELECT name FROM keel_runs ORDER BY name')).toEqual([
          { name: 'CreateRuns' },
          { name: 'SeedRuns' },
        ]);
        const waited = replicas.filter((replica) => replica.log.entries().some(isWaiting));
        expect(waited.length).toBeGreaterThanOrEqual(1);
        expect(replicas.flatMap((replica) => replica.log.entries().filter(isWarningOrWorse))).toEqual([]);
      });

      test('a replica waiting for the lock stops when it shuts down, while the one migrating finishes', async () => {
        const db = await scratch();
        const migrations = countedMigrations(dialect);
        const replicas = await Promise.all([1, 2].map(() => startReplica(dialect, db.url, migrations)));

        const waiter = await eventually(
          () => replicas.find((replica) => replica.log.entries().some(isWaiting)) ?? false,
          { within: 10_000, what: 'a replica waiting for the lock' },
        );
        const migrator = replicas.find((replica) => replica !== waiter);
        await waiter.health.app.close();
        const hadMigratorFinished = migrator?.log.entries().some(isUpToDate);
        await migrator?.log.next(isUpToDate, { what: 'the migrations up to date' });

        expect(hadMigratorFinished).toBe(false);
        expect(waiter.log.entries().filter(isWarningOrWorse)).toEqual([]);
        expect(await migrator?.health.probe()).toMatchObject({ status: 200, json: { db: 'connected' } });
        expect(await db.query('SELECT name FROM keel_runs ORDER BY name')).toEqual([
          { name: 'CreateRuns' },
          { name: 'SeedRuns' },
        ]);
      });

      // MariaDB commits before each CREATE TABLE: only PostgreSQL can take a schema change back, so
      // only PostgreSQL has this case.
      if (dialect.type === 'postgres')
        test('a failing migration is rolled back, readiness shows its error, and the replica retries until it succeeds', async () => {
          const db = await scratch();
          class Gated1700000000003 implements MigrationInterface {
            async up(runner: QueryRunner): Promise<void> {
              await runner.query('CREATE TABLE keel_partial (name varchar(100) NOT NULL)');
              await runner.query(`INSERT INTO keel_partial (name) VALUES ('Gated')`);
              await runner.query('SELECT count(*) FROM keel_gate');
            }
            async down(): Promise<void> {}
          }
          const replica = await startReplica(dialect, db.url, [Gated1700000000003], { maxDelayMs: 1000 });
          const isRetry = (attempt: number) => (entry: MigrationLine) =>
            entry.msg === 'migrations failed; retrying' && entry.attempt === attempt;

          const secondFailure = await replica.log.next(isRetry(2), { what: 'the second failed attempt' });
          const whileFailing = await replica.health.probe();
          const recordedWhileFailing = await db.query('SELECT name FROM migrations');
          const partialWhileFailing = await db.query(`SELECT to_regclass('keel_partial') AS partial`);
          await db.query('CREATE TABLE keel_gate (id int)');
          const upToDate: MigrationLine = await replica.log.next(isUpToDate, {
            what: 'the migrations up to date',
          });
          const afterwards = await replica.health.probe();

          const reason = 'relation "keel_gate" does not exist';
          expect(secondFailure).toMatchObject({ level: 40, err: { message: reason } });
          expect(whileFailing).toMatchObject({ status: 503, json: { status: 'error', db: reason } });
          expect(recordedWhileFailing).toEqual([]);
          expect(partialWhileFailing).toEqual([{ partial: null }]);
          expect(upToDate.applied).toEqual(['Gated1700000000003']);
          expect(afterwards).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
          expect(await db.query('SELECT name FROM keel_partial')).toEqual([{ name: 'Gated' }]);
        });
    },
  );
}
