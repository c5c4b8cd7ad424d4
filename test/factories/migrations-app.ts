import { execFile } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, SCRATCH_APP, runNode, scratchProject, type ProgramRun } from './cli';

const TSC = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsc');

/** A note's entity; `withColumns` adds columns (TypeScript property declarations) to it. */
export function noteEntity(withColumns: readonly string[] = []): string {
  return [
    "import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';",
    '',
    "@Entity('notes')",
    'export class Note {',
    '  @PrimaryGeneratedColumn()',
    '  id!: number;',
    '',
    "  @Column({ type: 'text' })",
    '  body!: string;',
    ...withColumns.map((column) => `\n  ${column}`),
    '}',
    '',
  ].join('\n');
}

function migration(className: string, up: string, down: string): string {
  return [
    "import type { MigrationInterface, QueryRunner } from 'typeorm';",
    '',
    `export class ${className} implements MigrationInterface {`,
    '  async up(queryRunner: QueryRunner): Promise<void> {',
    `    await queryRunner.query(${JSON.stringify(up)});`,
    '  }',
    '',
    '  async down(queryRunner: QueryRunner): Promise<void> {',
    `    await queryRunner.query(${JSON.stringify(down)});`,
    '  }',
    '}',
    '',
  ].join('\n');
}

const MIGRATION_FILES: Readonly<Record<string, string>> = {
  CreateNotes1700000000000: '1700000000000-create-notes',
  AddNotesIndex1700000000001: '1700000000001-add-notes-index',
  Broken1700000000002: '1700000000002-broken',
};

// A root module importing keel and the notes entity, then `imports`, with `preamble` above it and
// `database` (lines indented as the module's imports) as its one import.
function rootModule(
  imports: readonly string[],
  preamble: string | undefined,
  database: readonly string[],
): string {
  return [
    "import { DatabaseModule, Module } from 'keel';",
    "import { Note } from './note.entity';",
    ...imports,
    '',
    ...(preamble ? [preamble, ''] : []),
    '@Module({',
    '  imports: [',
    ...database.map((line) => `    ${line}`),
    '  ],',
    '})',
    'export class AppModule {}',
    '',
  ].join('\n');
}

/**
 * A root module whose DataSource reads `DATABASE_URL`, lists the notes entity, imports the fixture's
 * migrations `imported`, and writes `list` (then `preamble` above the module) as its `migrations`.
 */
export function appModule(imported: readonly string[], list: string, preamble?: string): string {
  const imports = imported.map((name) => `import { ${name} } from './migrations/${MIGRATION_FILES[name]}';`);
  return rootModule(imports, preamble, [
    'DatabaseModule.forRoot({',
    "  type: 'postgres',",
    '  url: process.env.DATABASE_URL,',
    '  entities: [Note],',
    `  migrations: [${list}],`,
    '  migrationsRun: true,',
    '}),',
  ]);
}

/**
 * A root module in the shape `framework new` writes, `DatabaseModule.forRoot({ inject, useFactory })`,
 * whose factory reads `DATABASE_URL` into `url` and ends in the statement `returned`; a function
 * `databaseOptions(url)` stands above it for a factory that returns options built elsewhere.
 */
export function factoryAppModule(returned: string): string {
  const preamble =
    "const databaseOptions = (url?: string) => ({ type: 'postgres' as const, url, entities: [Note] });";
  return rootModule([], preamble, [
    'DatabaseModule.forRoot({',
    '  inject: [],',
    '  useFactory: () => {',
    '    const url = process.env.DATABASE_URL;',
    `    ${returned}`,
    '  },',
    '}),',
  ]);
}

/**
 * A keel application with a notes table and two migrations, whose DataSource reads `DATABASE_URL`
 * and says `migrationsRun: true` (the commands must not run them at connect); `BROKEN_MIGRATION=1`
 * adds a third migration whose statement the database refuses.
 */
export const MIGRATIONS_APP: Readonly<Record<string, string>> = {
  ...SCRATCH_APP,
  'src/note.entity.ts': noteEntity(),
  'src/migrations/1700000000000-create-notes.ts': migration(
    'CreateNotes1700000000000',
    'CREATE TABLE "notes" ("id" SERIAL PRIMARY KEY, "body" text NOT NULL)',
    'DROP TABLE "notes"',
  ),
  'src/migrations/1700000000001-add-notes-index.ts': migration(
    'AddNotesIndex1700000000001',
    'CREATE INDEX "notes_body" ON "notes" ("body")',
    'DROP INDEX "notes_body"',
  ),
  'src/migrations/1700000000002-broken.ts': migration(
    'Broken1700000000002',
    'ALTER TABLE "no_such_table" ADD "x" int',
    'SELECT 1',
  ),
  'src/app.module.ts': appModule(
    ['CreateNotes1700000000000', 'AddNotesIndex1700000000001', 'Broken1700000000002'],
    'CreateNotes1700000000000, AddNotesIndex1700000000001, ...broken',
    'const broken = process.env.BROKEN_MIGRATION ? [Broken1700000000002] : [];',
  ),
};

/** A scratch project holding `files`, with `typeorm` and `reflect-metadata` linked from the repository. */
export function migrationsProject(files: Readonly<Record<string, string>> = MIGRATIONS_APP): string {
  const root = scratchProject(files);
  for (const name of ['typeorm', 'reflect-metadata']) {
    symlinkSync(path.join(REPO_ROOT, 'node_modules', name), path.join(root, 'node_modules', name), 'dir');
  }
  return root;
}

/** Compiles the project at `root` with the repository's tsc; rejects with tsc's output when it fails. */
export async function compile(root: string): Promise<void> {
  await promisify(execFile)(TSC, ['-p', root], { cwd: root }).catch(
    (error: { stdout: string; stderr: string }) => {
      throw new Error(`tsc -p ${root} failed:\n${error.stdout}${error.stderr}`);
    },
  );
}

/** Runs `node dist/main.js ...args` in the project at `root` against the database at `url`. */
export function runApp(
  root: string,
  url: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<ProgramRun> {
  return runNode('dist/main.js', args, { cwd: root, env: { DATABASE_URL: url, ...env }, timeoutMs: 30_000 });
}
