import { stripVTControlCharacters } from 'node:util';
import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { removeScratchProjects } from '../factories/cli';
import { compile, migrationsProject, runApp } from '../factories/migrations-app';
import { postgresUrl } from '../factories/test-databases';

// One compiled application for the file; each test gets an empty database of its own.
let root: string;
let database: ScratchDatabase;

// Each command is a process of its own that boots the application (about a second here).
jest.setTimeout(30_000);

beforeAll(async () => {
  root = migrationsProject();
  await compile(root);
}, 60_000);

afterAll(() => removeScratchProjects());

beforeEach(async () => {
  database = await createScratchDatabase(postgresUrl());
});

afterEach(() => database.drop());

const run = (args: readonly string[], env?: Record<string, string>) => runApp(root, database.url, args, env);

async function recorded(): Promise<string[]> {
  const rows = await database.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
  return rows.map((row) => row.name);
}

async function tables(): Promise<string[]> {
  const rows = await database.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  return rows.map((row) => row.tablename);
}

describe('migration commands through the application entry point', () => {
  test('migrate:status lists both migrations as pending; --check exits 1, without it 0', async () => {
    const status = await run(['migrate:status']);
    expect(status).toMatchObject({
      code: 0,
      stdout: 'pending  CreateNotes1700000000000\npending  AddNotesIndex1700000000001\n',
    });
    const check = await run(['migrate:status', '--check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toBe(status.stdout);
    expect(check.stderr).toContain('2 migrations are pending');
    // The application says migrationsRun: true, yet a command never migrates as it connects, and
    // looking creates nothing.
    expect(await tables()).toEqual([]);
  });

  test('migrate runs each pending migration once and prints it; then status --check exits 0', async () => {
    const migrate = await run(['migrate']);
    expect(migrate).toMatchObject({
      code: 0,
      stdout: 'migrated CreateNotes1700000000000\nmigrated AddNotesIndex1700000000001\n',
    });
    expect(await recorded()).toEqual(['CreateNotes1700000000000', 'AddNotesIndex1700000000001']);
    expect(await run(['migrate'])).toMatchObject({ code: 0, stdout: 'nothing to migrate\n' });
    expect(await run(['migrate:status', '--check'])).toMatchObject({
      code: 0,
      stdout: 'applied  CreateNotes1700000000000\napplied  AddNotesIndex1700000000001\n',
    });
  });

  test('migrate:rollback reverts the last one, --step 2 the rest, and migrate applies them again', async () => {
    expect((await run(['migrate'])).code).toBe(0);
    expect(await run(['migrate:rollback'])).toMatchObject({
      code: 0,
      stdout: 'reverted AddNotesIndex1700000000001\n',
    });
    expect(await recorded()).toEqual(['CreateNotes1700000000000']);
    expect(await database.query("SELECT 1 FROM pg_indexes WHERE indexname = 'notes_body'")).toEqual([]);

    expect(await run(['migrate:rollback', '--step', '2'])).toMatchObject({
      code: 0,
      stdout: 'reverted CreateNotes1700000000000\n',
    });
    expect(await tables()).toEqual(['migrations']);
    expect(await run(['migrate:rollback'])).toMatchObject({ code: 0, stdout: 'nothing to revert\n' });

    expect((await run(['migrate'])).code).toBe(0);
    expect(await recorded()).toEqual(['CreateNotes1700000000000', 'AddNotesIndex1700000000001']);
  });

  test("a failing migration exits 1 with the database's message and leaves no migration recorded", async () => {
    const migrate = await run(['migrate'], { BROKEN_MIGRATION: '1' });
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toContain('relation "no_such_table" does not exist');
    // TypeORM's own line names the migration that failed; the ones before it were rolled back with it.
    // TypeORM colours it where it believes a terminal (or CI) shows colours.
    expect(stripVTControlCharacters(migrate.stdout)).toBe(
      'Migration "Broken1700000000002" failed, error: relation "no_such_table" does not exist\n',
    );
    expect(await recorded()).toEqual([]);
    expect(await tables()).toEqual(['migrations']);
  });

  test('bad input exits 2 with a clear message, before the database is touched', async () => {
    const usage = async (args: readonly string[], message: string): Promise<void> => {
      const bad = await run(args);
      expect(bad).toMatchObject({ code: 2, stdout: '' });
      expect(bad.stderr).toContain(message);
    };
    await usage(['migrate', 'now'], 'too many arguments');
    expect(await tables()).toEqual([]);
    expect((await run(['migrate'])).code).toBe(0);
    await usage(['migrate:rollback', '--step', 'abc'], '--step "abc" is not a number of migrations');
    await usage(['migrate:rollback', '--step', '0'], '--step "0" is not a number of migrations');
    await usage(['migrate:rollback', '--steps', '1'], "unknown option '--steps'");
    await usage(['migrate:status', '--verbose'], "unknown option '--verbose'");
    expect(await recorded()).toEqual(['CreateNotes1700000000000', 'AddNotesIndex1700000000001']);
  });

  test('--help lists the migration commands', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['migrate ', 'migrate:rollback', 'migrate:status'])
      expect(help.stdout).toContain(command);
  });

  test("a database that cannot be reached exits 1 with the driver's reason", async () => {
    const unreachable = await runApp(root, 'postgres://postgres@127.0.0.1:1/none', ['migrate:status']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('ECONNREFUSED');
  });
});
