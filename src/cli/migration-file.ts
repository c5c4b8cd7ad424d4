import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CliErrors } from '../errors/cli-errors';
import { createFile } from './file-write';
import type { MigrationNames } from './migration-naming';
import { planRegistration, type ListSite, type ModuleEntry, type Registration } from './module-registration';
import { applyRegistration, describeRegistration, importSpecifier, manualLines } from './registration-report';
import { renderMigration, type MigrationStatement } from './schematic';

/**
 * The `migrations: [...]` of the options `DatabaseModule.forRoot` is given: an object, or the object
 * its factory returns (`() => ({...})`, `{ inject, useFactory }`); options without one get one.
 */
export const MIGRATIONS_SITE: ListSite = {
  key: 'migrations',
  call: 'DatabaseModule.forRoot(...)',
  place: 'the options of DatabaseModule.forRoot',
  opening: /(?<![\w$.])DatabaseModule\s*\.\s*forRoot\s*\(/,
  addsMissingKey: true,
};

/** A migration to write: its names, its statements, and the project it goes in. */
export interface MigrationFileRequest {
  readonly names: MigrationNames;
  readonly up: readonly MigrationStatement[];
  readonly down: readonly MigrationStatement[];
  /** The project directory, which holds `src/` (or the sources themselves). */
  readonly root: string;
}

/**
 * Writes a migration to `<sourceRoot>/migrations/<timestamp>-<name>.ts` and registers it in the
 * `migrations: [...]` of `DatabaseModule.forRoot` in the root module (`<sourceRoot>/app.module.ts`),
 * as `make:controller` registers a controller; when that list cannot be edited safely, the lines to
 * add are printed instead. Returns what it did, as lines for the terminal. An existing file is
 * never overwritten.
 *
 * @example
 * writeMigration({ names: migrationNames('AddNote', Date.now()), up: [], down: [], root: process.cwd() });
 */
export function writeMigration(request: MigrationFileRequest): string {
  const root = path.resolve(request.root);
  const sourceRoot = isDirectory(path.join(root, 'src')) ? path.join(root, 'src') : root;
  const file = path.join(sourceRoot, 'migrations', `${request.names.fileName}.ts`);
  const moduleFile = path.join(sourceRoot, 'app.module.ts');
  const shown = (target: string) => path.relative(root, target) || '.';
  if (existsSync(file)) throw CliErrors.fileExists(shown(file));

  const { className } = request.names;
  const moduleSource = isFile(moduleFile) ? readFileSync(moduleFile, 'utf8') : undefined;
  const entry: ModuleEntry = {
    className,
    importLine: `import { ${className} } from '${importSpecifier(moduleFile, file, moduleSource ?? '')}';`,
  };
  const registration: Registration = moduleSource
    ? planRegistration(moduleSource, entry, MIGRATIONS_SITE)
    : { kind: 'manual', reason: 'there is no such file' };

  mkdirSync(path.dirname(file), { recursive: true });
  try {
    createFile(file, renderMigration({ className, up: request.up, down: request.down }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw CliErrors.fileExists(shown(file));
    throw error;
  }
  const lines = manualLines(entry, MIGRATIONS_SITE);
  applyRegistration(registration, {
    moduleFile,
    shownFile: shown(file),
    shownModule: shown(moduleFile),
    lines,
  });
  const report = { file: shown(moduleFile), entry, verb: 'edited', site: MIGRATIONS_SITE };
  return [`wrote ${shown(file)}`, ...describeRegistration(registration, report)].join('\n');
}

function isDirectory(target: string): boolean {
  return statSync(target, { throwIfNoEntry: false })?.isDirectory() === true;
}

function isFile(target: string): boolean {
  return statSync(target, { throwIfNoEntry: false })?.isFile() === true;
}
