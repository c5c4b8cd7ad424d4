import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeScratchProjects } from '../factories/cli';
import {
  MIGRATIONS_APP,
  appModule,
  compile,
  factoryAppModule,
  migrationsProject,
  noteEntity,
  runApp,
} from '../factories/migrations-app';
import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { postgresUrl } from '../factories/test-databases';

// Each command is a process that boots the application; generating also recompiles it with tsc.
jest.setTimeout(120_000);

const databases: ScratchDatabase[] = [];

afterAll(async () => {
  await Promise.all(databases.map((database) => database.drop()));
  removeScratchProjects();
});

async function scratchDatabase(): Promise<ScratchDatabase> {
  const database = await createScratchDatabase(postgresUrl());
  databases.push(database);
  return database;
}

// The application without the fixture's migrations: its module lists none.
function emptyApp(): Readonly<Record<string, string>> {
  const files = Object.entries(MIGRATIONS_APP).filter(([file]) => !file.startsWith('src/migrations/'));
  return { ...Object.fromEntries(files), 'src/app.module.ts': appModule([], '') };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');
const migrationFiles = (root: string) =>
  existsSync(path.join(root, 'src', 'migrations')) ? readdirSync(path.join(root, 'src', 'migrations')) : [];

describe('migration:create', () => {
  // One compiled application; each test starts from its sources with no migration.
  let root: string;

  // Runs migration:create with the root module `moduleSource`, where no database is needed.
  function createWith(moduleSource: string, name: string): ReturnType<typeof runApp> {
    writeFileSync(path.join(root, 'src', 'app.module.ts'), moduleSource);
    return runApp(root, 'postgres://unused@127.0.0.1:1/none', ['migration:create', name]);
  }

  beforeAll(async () => {
    root = migrationsProject(emptyApp());
    await compile(root);
  });

  beforeEach(() => {
    rmSync(path.join(root, 'src', 'migrations'), { recursive: true, force: true });
    writeFileSync(path.join(root, 'src', 'app.module.ts'), appModule([], ''));
  });

  test('writes an empty migration class, registers it, and the application compiles and lists it', async () => {
    const create = await runApp(root, 'postgres://unused@127.0.0.1:1/none', [
      'migration:create',
      'AddNoteTitle',
    ]);
    expect(create.code).toBe(0);
    const [file] = migrationFiles(root);
    const timestamp = /^(\d{13})-add-note-title\.ts$/.exec(file ?? '')?.[1];
    expect(timestamp).toBeDefined();
    const className = `AddNoteTitle${timestamp}`;
    expect(create.stdout).toContain(`wrote src/migrations/${file}\nedited src/app.module.ts:`);
    expect(read(root, `src/migrations/${file}`)).toContain(
      `export class ${className} implements MigrationInterface {`,
    );
    const module = read(root, 'src/app.module.ts');
    expect(module).toContain(`import { ${className} } from './migrations/${timestamp}-add-note-title';`);
    expect(module).toContain(`migrations: [${className}],`);

    await compile(root);
    const database = await scratchDatabase();
    expect(await runApp(root, database.url, ['migrate:status'])).toMatchObject({
      code: 0,
      stdout: `pending  ${className}\n`,
    });
  });

  test.each([
    [
      'the list is not plain names',
      appModule([], 'CreateNotes1700000000000, ...others', 'const others = [];'),
      'its migrations list holds more than plain class names',
    ],
    [
      'the options are built elsewhere',
      factoryAppModule('return databaseOptions(url);'),
      'the options of DatabaseModule.forRoot(...) are not an object it can read: its factory returns `databaseOptions(url)`, not an object written out in place',
    ],
  ])(
    'where %s, writes the file, says why and prints the lines to add instead',
    async (_case, moduleBefore, reason) => {
      const create = await createWith(moduleBefore, 'add-note-title');
      expect(create.code).toBe(0);
      expect(create.stdout).toMatch(
        new RegExp(
          `could not register AddNoteTitle\\d{13} in src/app\\.module\\.ts safely: ${escapeRegExp(reason)}\\.`,
        ),
      );
      expect(create.stdout).toMatch(
        /add these lines to the options of DatabaseModule\.forRoot:\nimport \{ AddNoteTitle(\d{13}) \} from '\.\/migrations\/\1-add-note-title';\nmigrations: \[AddNoteTitle\1\],\n$/,
      );
      expect(read(root, 'src/app.module.ts')).toBe(moduleBefore);
      expect(migrationFiles(root).filter((file) => file.endsWith('-add-note-title.ts'))).toHaveLength(1);
    },
  );

  test('registers it in the object a { inject, useFactory } factory returns, adding the migrations key', async () => {
    const create = await createWith(
      factoryAppModule("return { type: 'postgres', url, entities: [Note] };"),
      'AddNoteTitle',
    );
    expect(create.code).toBe(0);
    const className = /export class (AddNoteTitle\d{13})/.exec(
      read(root, `src/migrations/${migrationFiles(root)[0]}`),
    )?.[1];
    expect(read(root, 'src/app.module.ts')).toContain(
      `return { type: 'postgres', url, entities: [Note], migrations: [${className}] };`,
    );

    await compile(root);
    const database = await scratchDatabase();
    expect(await runApp(root, database.url, ['migrate:status'])).toMatchObject({
      code: 0,
      stdout: `pending  ${className}\n`,
    });
  });

  test.each([
    [['migration:create', '9lives'], '"9lives" cannot name a migration: it does not start with a letter'],
    [['migration:create', 'add/note'], '"add/note" cannot name a migration: it is a path, not a name'],
    [['migration:create'], "missing required argument 'name'"],
    [['migration:generate', 'add note'], '"add note" cannot name a migration: it contains white space'],
    [['migration:create', 'AddNote', '--force'], "unknown option '--force'"],
  ])('%j exits 2 and writes nothing', async (args, message) => {
    const run = await runApp(root, 'postgres://unused@127.0.0.1:1/none', args);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(message);
    expect(migrationFiles(root)).toEqual([]);
    expect(read(root, 'src/app.module.ts')).toBe(appModule([], ''));
  });
});

describe('migration:generate', () => {
  test('writes the CREATE TABLE, then nothing, then the ALTER TABLE once the entity gains a column', async () => {
    const root = migrationsProject(emptyApp());
    const database = await scratchDatabase();
    const run = (args: readonly string[]) => runApp(root, database.url, args);
    await compile(root);

    const first = await run(['migration:generate', 'CreateNotes']);
    expect(first.code).toBe(0);
    const [created] = migrationFiles(root);
    expect(read(root, `src/migrations/${created}`)).toContain('CREATE TABLE "notes"');
    await compile(root);
    expect((await run(['migrate'])).code).toBe(0);

    const unchanged = await run(['migration:generate', 'Nothing']);
    expect(unchanged).toMatchObject({
      code: 0,
      stdout: 'no changes: the database matches the entities; nothing was written\n',
    });
    expect(migrationFiles(root)).toEqual([created]);

    writeFileSync(
      path.join(root, 'src', 'note.entity.ts'),
      noteEntity(["@Column({ type: 'text', nullable: true })\n  title!: string | null;"]),
    );
    await compile(root);
    const altered = await run(['migration:generate', 'AddNoteTitle']);
    expect(altered.code).toBe(0);
    const added = migrationFiles(root).find((file) => file.endsWith('-add-note-title.ts'));
    const source = read(root, `src/migrations/${added}`);
    expect(source).toContain('await queryRunner.query(`ALTER TABLE "notes" ADD "title" text`);');
    expect(source).toContain('await queryRunner.query(`ALTER TABLE "notes" DROP COLUMN "title"`);');
    expect(read(root, 'src/app.module.ts')).toMatch(/migrations: \[CreateNotes\d{13}, AddNoteTitle\d{13}\]/);

    // The generated file compiles, is registered, and brings the database to the entities.
    await compile(root);
    expect((await run(['migrate'])).stdout).toMatch(/^migrated AddNoteTitle\d{13}\n$/);
    expect(
      await database.query(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'notes' AND column_name = 'title'",
      ),
    ).toHaveLength(1);
    expect((await run(['migration:generate', 'Again'])).stdout).toContain('no changes');
  });
});
