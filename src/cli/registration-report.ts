import path from 'node:path';
import { messageOf } from '../errors';
import { CliErrors } from '../errors/cli-errors';
import { replaceFile } from './file-write';
import {
  CONTROLLERS_SITE,
  type LineChange,
  type ListSite,
  type ModuleEntry,
  type Registration,
} from './module-registration';

/** What a registration report names: the file, the class, the verb, and the list it goes in. */
export interface RegistrationReport {
  /** The file, as the user sees it (relative to the project). */
  readonly file: string;
  readonly entry: ModuleEntry;
  /** `edited`, or `would edit` for a dry run. */
  readonly verb: string;
  /** The list the class goes in; by default a module's controllers. */
  readonly site?: ListSite;
}

/**
 * A planned or done registration as lines for the terminal: the edit as a small diff, or, when the
 * file could not be edited safely, why, and the lines to add by hand.
 *
 * @example
 * describeRegistration(plan, { file: 'src/app.module.ts', entry, verb: 'edited' }).join('\n');
 */
export function describeRegistration(registration: Registration, report: RegistrationReport): string[] {
  const { file, entry, verb, site = CONTROLLERS_SITE } = report;
  switch (registration.kind) {
    case 'registered':
      return [`${file} already registers ${entry.className}; left as it is`];
    case 'edit':
      return [`${verb} ${file}:`, ...registration.changes.flatMap(formatChange)];
    case 'manual':
      return [
        `could not register ${entry.className} in ${file} safely: ${registration.reason}.`,
        `It was left as it is; add these lines to ${site.place}:`,
        ...manualLines(entry, site),
      ];
  }
}

/** The lines that register `entry` by hand: its import, and the list with it. @example manualLines(entry) */
export function manualLines(entry: ModuleEntry, site: ListSite = CONTROLLERS_SITE): string[] {
  return [entry.importLine, `${site.key}: [${entry.className}],`];
}

/** Where a registration goes, and what to say if the module cannot be edited. */
export interface RegistrationTarget {
  /** The module file to edit. */
  readonly moduleFile: string;
  /** The file just written, and the module, as the user sees them. */
  readonly shownFile: string;
  readonly shownModule: string;
  /** The lines that register the class by hand. */
  readonly lines: readonly string[];
}

/**
 * Writes a planned module edit, if there is one; a module that cannot be written throws
 * `E_MODULE_NOT_EDITED`, saying what was written already and the lines to add by hand.
 *
 * @example
 * applyRegistration(plan, { moduleFile, shownFile: 'src/migrations/1-a.ts', shownModule: 'src/app.module.ts', lines });
 */
export function applyRegistration(registration: Registration, target: RegistrationTarget): void {
  if (registration.kind !== 'edit') return;
  try {
    replaceFile(target.moduleFile, registration.text);
  } catch (error) {
    throw CliErrors.moduleNotEdited({
      written: target.shownFile,
      module: target.shownModule,
      reason: messageOf(error),
      lines: target.lines,
    });
  }
}

function formatChange(change: LineChange): string[] {
  return [
    `@@ line ${change.line}`,
    ...change.removed.map((line) => `-${line}`),
    ...change.added.map((line) => `+${line}`),
  ];
}

/**
 * How `moduleFile` imports `targetFile`: relative, with `/` separators, and with `.js` when the
 * module's own relative imports carry it (ECMAScript-module projects need it; CommonJS ones must
 * not get it where they never use it).
 *
 * @example
 * importSpecifier('src/app.module.ts', 'src/migrations/1700000000000-add-note.ts', source); // './migrations/1700000000000-add-note'
 */
export function importSpecifier(moduleFile: string, targetFile: string, moduleSource: string): string {
  const relative = path
    .relative(path.dirname(moduleFile), targetFile)
    .split(path.sep)
    .join('/')
    .replace(/\.ts$/, '');
  const specifier = relative.startsWith('.') ? relative : `./${relative}`;
  return /from\s+['"]\.{1,2}\/[^'"]*\.js['"]/.test(moduleSource) ? `${specifier}.js` : specifier;
}
