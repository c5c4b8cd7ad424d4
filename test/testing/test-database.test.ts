import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DatabaseModule, Module } from 'keel';
import { createTestingApplication, type TestingApplication } from 'keel/testing';
import { describeNeeding } from '../factories/requirements';
import { TestDatabaseNote, freshSchema, type FreshSchema } from '../factories/test-database-app';
import { closedPort, postgresServerMissing, postgresUrl, withUrlParts } from '../factories/test-databases';

async function query<Row>(sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

function databaseOf(app: TestingApplication): string {
  const { url } = app.get(DataSource).options as { url: string };
  return new URL(url).pathname.slice(1);
}

async function databaseExists(name: string): Promise<boolean> {
  return (await query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length === 1;
}

async function addNote(app: TestingApplication, body: string): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/notes', payload: { body } });
  expect(res.statusCode).toBe(201);
}

async function notes(app: TestingApplication): Promise<string[]> {
  const res = await app.inject('/notes');
  expect(res.statusCode).toBe(200);
  return (res.json() as { body: string }[]).map((note) => note.body);
}

describeNeeding(postgresServerMissing(), 'withTestDatabase on a PostgreSQL server', () => {
  const templates: string[] = [];
  const boot = (module: ReturnType<typeof freshSchema>['module']) =>
    createTestingApplication(module).withTestDatabase({ url: postgresUrl() }).boot({ logger: false });

  // The templates of this file's fresh schemas would never be used again.
  afterAll(async () => {
    for (const template of templates) {
      if (!(await databaseExists(template))) continue;
      await query(`ALTER DATABASE "${template}" IS_TEMPLATE false`);
      await query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    }
  }, 60_000);

  // The template of a schema this file made: dropped after the tests.
  async function templateOf(schema: FreshSchema): Promise<string> {
    const template = await schema.template();
    templates.push(template);
    return template;
  }

  test('two applications booted at once each see only their own rows, on databases of their own', async () => {
    const schema = freshSchema();
    const [first, second] = await Promise.all([boot(schema.module), boot(schema.module)]);
    try {
      await templateOf(schema);
      expect(databaseOf(first)).toMatch(/^keel_test_\d+_[0-9a-f]{8}$/);
      expect(databaseOf(first)).not.toBe(databaseOf(second));
      await addNote(first, 'first only');
      await Promise.all([addNote(second, 'second, one'), addNote(second, 'second, two')]);

      expect(await notes(first)).toEqual(['first only']);
      expect((await notes(second)).sort()).toEqual(['second, one', 'second, two']);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);

  test('the schema is migrated once, into a template, and each application gets a copy with the migration recorded', async () => {
    const schema = freshSchema();
    const apps = await Promise.all([1, 2, 3, 4].map(() => boot(schema.module)));
    const later = await boot(schema.module);
    try {
      expect(schema.migrationRuns()).toBe(1);
      const template = await templateOf(schema);
      for (const app of [...apps, later]) {
        const recorded = await app.get(DataSource).query('SELECT name FROM migrations');
        expect(recorded).toEqual([{ name: schema.migrationName }]);
        expect(await notes(app)).toEqual([]);
      }
      // A copy is made from the template: it is marked as one, and nothing stays connected to it.
      expect(await query('SELECT datistemplate FROM pg_database WHERE datname = $1', [template])).toEqual([
        { datistemplate: true },
      ]);
      const [row] = await query<{ connections: string }>(
        'SELECT count(*) AS connections FROM pg_stat_activity WHERE datname = $1',
        [template],
      );
      expect(row?.connections).toBe('0');
    } finally {
      await Promise.all([...apps, later].map((app) => app.close()));
    }
  }, 90_000);

  test('another schema gets another template', async () => {
    const [one, other] = [freshSchema(), freshSchema()];
    const first = await boot(one.module);
    const firstTemplate = await templateOf(one);
    const second = await boot(other.module);
    const secondTemplate = await templateOf(other);
    try {
      expect(secondTemplate).not.toBe(firstTemplate);
      expect([one.migrationRuns(), other.migrationRuns()]).toEqual([1, 1]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);

  test("close() drops the application's database, even with a connection still open to it", async () => {
    const schema = freshSchema();
    const app = await boot(schema.module);
    await templateOf(schema);
    const name = databaseOf(app);
    expect(await databaseExists(name)).toBe(true);
    const lingering = new Client({ connectionString: withUrlParts(postgresUrl(), { database: name }) });
    lingering.on('error', () => undefined);
    await lingering.connect();

    await app.close();

    expect(await databaseExists(name)).toBe(false);
    await lingering.end().catch(() => undefined);
  }, 60_000);

  test('only the connection is replaced: the options the application gives are kept', async () => {
    const schema = freshSchema();
    const app = await boot(schema.module);
    try {
      await templateOf(schema);
      const options = app.get(DataSource).options as {
        poolSize?: number;
        migrationsRun?: boolean;
        entities?: unknown[];
      };
      expect(options.poolSize).toBe(3);
      expect(options.entities).toHaveLength(1);
      // keel runs the migrations itself, under its lock: TypeORM's own flag is off on every DataSource keel makes.
      expect(options.migrationsRun).toBe(false);
      const res = await app.inject('/notes');
      expect(res.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  }, 60_000);

  test('an application that synchronises its entities gets their tables in its copy', async () => {
    @Module({
      imports: [
        DatabaseModule.forRoot({
          type: 'postgres',
          url: 'postgres://postgres@127.0.0.1:1/replaced',
          entities: [TestDatabaseNote],
          synchronize: true,
        }),
        DatabaseModule.forFeature([TestDatabaseNote]),
      ],
    })
    class SynchronisedApp {}
    const app = await createTestingApplication(SynchronisedApp)
      .withTestDatabase({ url: postgresUrl() })
      .boot({ logger: false });
    try {
      const columns = (await app
        .get(DataSource)
        .query(
          "SELECT column_name FROM information_schema.columns WHERE table_name = 'test_database_notes' ORDER BY column_name",
        )) as { column_name: string }[];
      expect(columns.map((column) => column.column_name)).toEqual(['body', 'id']);
    } finally {
      await app.close();
    }
  }, 60_000);

  test('a copy left by a process that no longer runs is dropped when a template is next prepared', async () => {
    const { pid } = spawnSync(process.execPath, ['-e', '0']);
    const leftover = `keel_test_${pid}_deadbeef`;
    await query(`CREATE DATABASE "${leftover}"`);
    const schema = freshSchema();
    const app = await boot(schema.module);
    try {
      await templateOf(schema);
      expect(await databaseExists(leftover)).toBe(false);
      expect(await databaseExists(databaseOf(app))).toBe(true);
    } finally {
      await app.close();
      await query(`DROP DATABASE IF EXISTS "${leftover}"`);
    }
  }, 60_000);

  test('a server that cannot be reached stops the boot with E_TEST_DATABASE_UNREACHABLE, naming it and the fix', async () => {
    const url = withUrlParts(postgresUrl(), { port: await closedPort(), password: 'secret' });
    const boot = createTestingApplication(freshSchema().module)
      .withTestDatabase({ url })
      .boot({ logger: false });
    await expect(boot).rejects.toMatchObject({ code: 'E_TEST_DATABASE_UNREACHABLE' });
    await expect(boot).rejects.toThrow(
      /cannot reach the PostgreSQL server at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/test: connect ECONNREFUSED/,
    );
    await expect(boot).rejects.toThrow(/Fix: start that server/);
  }, 30_000);
});

test('an application without DatabaseModule is refused with E_TEST_DATABASE_WITHOUT_MODULE, saying what to import', async () => {
  @Module({})
  class NoDatabase {}
  const boot = createTestingApplication(NoDatabase)
    .withTestDatabase({ url: 'postgres://postgres@127.0.0.1:1/none' })
    .boot({ logger: false });
  await expect(boot).rejects.toMatchObject({ code: 'E_TEST_DATABASE_WITHOUT_MODULE' });
  await expect(boot).rejects.toThrow(/import DatabaseModule\.forRoot\(\.\.\.\)/);
});

test('a DataSource of another type is refused with E_TEST_DATABASE_TYPE', async () => {
  @Module({ imports: [DatabaseModule.forRoot({ type: 'mysql', url: 'mysql://root@127.0.0.1:1/none' })] })
  class MysqlApp {}
  const boot = createTestingApplication(MysqlApp)
    .withTestDatabase({ url: 'postgres://postgres@127.0.0.1:1/none' })
    .boot({ logger: false });
  await expect(boot).rejects.toMatchObject({ code: 'E_TEST_DATABASE_TYPE' });
  await expect(boot).rejects.toThrow(/of type 'mysql'/);
});

test("a URL that is not PostgreSQL's is refused with E_TEST_DATABASE_URL", async () => {
  const boot = createTestingApplication(freshSchema().module)
    .withTestDatabase({ url: 'mysql://root@127.0.0.1/test' })
    .boot({ logger: false });
  await expect(boot).rejects.toMatchObject({ code: 'E_TEST_DATABASE_URL' });
});
