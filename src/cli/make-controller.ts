import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CliErrors } from '../errors/cli-errors';
import type { ControllerKind } from './controller-kinds';
import { createFile, replaceFile } from './file-write';
import { planRegistration, type ModuleEntry, type Registration } from './module-registration';
import { applyRegistration, describeRegistration, importSpecifier, manualLines } from './registration-report';
import { controllerNames } from './naming';
import { renderController, renderViews } from './schematic';

/** What `make:controller` was asked to do, its name already known. */
export interface MakeControllerRequest {
  readonly name: string;
  readonly kind: ControllerKind;
  /** The project directory. */
  readonly root: string;
  /** The root module's file, relative to `root`; by default `<sourceRoot>/app.module.ts`. */
  readonly module: string | undefined;
  readonly force: boolean;
  readonly dryRun: boolean;
}

/**
 * Writes a controller to `<sourceRoot>/http/controllers/<name>.ts` (the source root is `src/` when
 * the project has one), with the pages it renders under `views/` (a resource's create and edit
 * forms), and registers it in the root module, or says what it would do with `dryRun`.
 * Returns what it did, as lines for the terminal; an invalid name, an existing file without `force`,
 * a `--root` that is no directory or a `--module` that is no file throw from the catalogue before
 * anything is written.
 *
 * @example
 * makeController({ name: 'Order', kind: 'resource', root: process.cwd(), module: undefined, force: false, dryRun: false });
 */
export function makeController(request: MakeControllerRequest): string {
  const names = controllerNames(request.name);
  const root = path.resolve(request.root);
  if (!isDirectory(root)) throw CliErrors.rootNotFound(request.root);
  const sourceRoot = isDirectory(path.join(root, 'src')) ? path.join(root, 'src') : root;
  const file = path.join(sourceRoot, 'http', 'controllers', `${names.fileName}.ts`);
  const moduleFile = path.resolve(root, request.module ?? path.join(sourceRoot, 'app.module.ts'));
  const shown = (target: string) => path.relative(root, target) || '.';
  if (request.module !== undefined && !isFile(moduleFile)) throw CliErrors.moduleNotFound(shown(moduleFile));
  const views = renderViews(request.kind, names).map((view) => ({
    file: path.join(root, 'views', view.name),
    text: view.text,
  }));
  for (const target of [file, ...views.map((view) => view.file)]) {
    if (existsSync(target) && !request.force) throw CliErrors.fileExists(shown(target));
  }

  const source = renderController(request.kind, names);
  const moduleSource = isFile(moduleFile) ? readFileSync(moduleFile, 'utf8') : undefined;
  const entry: ModuleEntry = {
    className: names.className,
    importLine: `import { ${names.className} } from '${importSpecifier(moduleFile, file, moduleSource ?? '')}';`,
  };
  const registration: Registration = moduleSource
    ? planRegistration(moduleSource, entry)
    : { kind: 'manual', reason: 'there is no such file' };

  if (request.dryRun) {
    return [
      `would write ${shown(file)}:`,
      source,
      ...views.flatMap((view) => [`would write ${shown(view.file)}:`, view.text]),
      ...describeRegistration(registration, { file: shown(moduleFile), entry, verb: 'would edit' }),
      'nothing was written (--dry-run)',
    ].join('\n');
  }
  for (const target of [{ file, text: source }, ...views]) writeGenerated(target, request.force, shown);
  const lines = manualLines(entry);
  applyRegistration(registration, {
    moduleFile,
    shownFile: shown(file),
    shownModule: shown(moduleFile),
    lines,
  });
  return [
    `wrote ${shown(file)}`,
    ...views.map((view) => `wrote ${shown(view.file)}`),
    ...describeRegistration(registration, { file: shown(moduleFile), entry, verb: 'edited' }),
  ].join('\n');
}

function writeGenerated(
  { file, text }: { file: string; text: string },
  force: boolean,
  shown: (target: string) => string,
): void {
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    if (force && existsSync(file)) replaceFile(file, text);
    else createFile(file, text);
  } catch (error) {
    // Created by someone else since the check above: still never overwritten.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw CliErrors.fileExists(shown(file));
    throw error;
  }
}

function isDirectory(target: string): boolean {
  return statSync(target, { throwIfNoEntry: false })?.isDirectory() === true;
}

function isFile(target: string): boolean {
  return statSync(target, { throwIfNoEntry: false })?.isFile() === true;
}
