import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { CliErrors } from '../errors/cli-errors';
import { createFile } from './file-write';
import { dockerVendorCopy, keelDependency, vendorKeel } from './keel-dependency';
import { renderTemplate } from './schematic';
import { esmVariant } from './esm-project';

/** What `framework new` was asked to make. */
export interface NewProjectRequest {
  /** Where to write it, from `cwd`: `my-app`, `apps/billing-api`, `./ledger`; its last segment names the project. */
  readonly directory: string;
  /** The version spec of keel the project depends on: a version, a range or a tarball's path (from `cwd`). */
  readonly keel: string;
  readonly cwd: string;
  /** An ES module project (`"type": "module"`) rather than a CommonJS one. */
  readonly esm?: boolean;
}

// The same from src/cli (tests) and dist/cli (the program): both sit two levels below the package.
const TEMPLATES = path.join(__dirname, '..', '..', 'schematics', 'project');

// Valid for npm, a directory, an image tag and a Kubernetes object name (DNS-1123 label) alike.
const VALID_PROJECT_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MAX_NAME_LENGTH = 63;

/**
 * Why `input` cannot name a project, or `undefined` when it can.
 *
 * @example
 * projectNameProblem('My App'); // 'it has characters other than lower-case letters, digits and -'
 */
function projectNameProblem(input: string): string | undefined {
  if (input.trim() === '') return 'it is empty';
  if (input.length > MAX_NAME_LENGTH) return `it is longer than ${MAX_NAME_LENGTH} characters`;
  if (!VALID_PROJECT_NAME.test(input)) return 'it has characters other than lower-case letters, digits and -';
  return undefined;
}

/**
 * Writes a new project into `request.directory` (from `cwd`; its last segment is the project's name,
 * as with `cargo new` or `npm init`) from `schematics/project/` and returns what to type next. An
 * invalid name (exit 2) or a directory that exists and is not empty (exit 1) throws from the
 * catalogue before anything is written; a write that fails halfway removes the directory it made.
 *
 * @example
 * createProject({ directory: 'apps/billing-api', keel: '0.1.0', cwd: process.cwd() });
 */
export function createProject(request: NewProjectRequest): string {
  const shown = request.directory.replace(/[\\/]+$/, '');
  const name = path.basename(shown);
  const problem = shown === '' ? 'it is empty' : projectNameProblem(name);
  if (problem) throw CliErrors.invalidProjectName(request.directory, problem);
  const directory = path.resolve(request.cwd, shown);
  const existing = statSync(directory, { throwIfNoEntry: false });
  if (existing && !(existing.isDirectory() && readdirSync(directory).length === 0)) {
    throw CliErrors.directoryNotEmpty(shown);
  }
  // Rendered whole before the first write: a template that fails leaves nothing behind.
  const keel = keelDependency(request.keel, request.cwd);
  const values = { name, keel: keel.spec, vendorCopy: dockerVendorCopy(keel) };
  const render = (text: string): string => renderTemplate(text, values);
  const files = templateFiles(TEMPLATES).map((template) => {
    const text = render(readFileSync(path.join(TEMPLATES, template), 'utf8'));
    return {
      target: path.join(directory, outputPath(template)),
      text: request.esm ? esmVariant(template, text, render) : text,
    };
  });
  mkdirSync(directory, { recursive: true });
  try {
    for (const { target, text } of files) {
      mkdirSync(path.dirname(target), { recursive: true });
      createFile(target, text);
    }
    vendorKeel(keel, directory);
  } catch (error) {
    removeContents(directory, { andDirectory: !existing });
    throw error;
  }
  return [
    `wrote ${shown}/: ${files.length} files, keel ${values.keel}`,
    'next:',
    `  cd ${shown} && npm install`,
    '  npm start',
  ].join('\n');
}

// Only what this command made: an empty directory that was there before stays.
function removeContents(directory: string, options: { andDirectory: boolean }): void {
  if (options.andDirectory) return rmSync(directory, { recursive: true, force: true });
  for (const entry of readdirSync(directory))
    rmSync(path.join(directory, entry), { recursive: true, force: true });
}

// Relative paths of every template file, in a stable order.
function templateFiles(root: string, under = ''): string[] {
  return readdirSync(path.join(root, under), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const relative = path.join(under, entry.name);
      return entry.isDirectory() ? templateFiles(root, relative) : [relative];
    });
}

// `src/main.ts.tpl` → `src/main.ts`; `_gitignore.tpl` → `.gitignore` (npm leaves dotfiles such as
// .gitignore out of a published package, so the templates cannot carry the dot).
function outputPath(template: string): string {
  const withoutSuffix = template.replace(/\.tpl$/, '');
  const base = path.basename(withoutSuffix).replace(/^_/, '.');
  return path.join(path.dirname(withoutSuffix), base);
}
