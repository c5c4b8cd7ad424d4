import { chmodSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Creates `file` holding `text`, never over an existing one (EEXIST); a write that fails halfway
 * (a full disk) removes what it began, so no half-written file is left.
 *
 * @example
 * createFile('src/http/controllers/order.ts', source);
 */
export function createFile(file: string, text: string): void {
  try {
    writeFileSync(file, text, { flag: 'wx' });
  } catch (error) {
    // With `wx`, any failure but EEXIST means the file was not there before: what is there is ours.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(file, { force: true });
    throw error;
  }
}

/**
 * Replaces the content of the existing `file` in one step: `text` goes to a file beside it that is
 * then renamed over it, so a write that fails halfway leaves it as it was. A link is followed, and
 * the file's mode kept.
 *
 * @example
 * replaceFile('src/app.module.ts', edited);
 */
export function replaceFile(file: string, text: string): void {
  const target = realpathSync(file);
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  let isReplaced = false;
  try {
    writeFileSync(temporary, text, { flag: 'wx' });
    chmodSync(temporary, statSync(target).mode & 0o7777);
    renameSync(temporary, target);
    isReplaced = true;
  } finally {
    if (!isReplaced) rmSync(temporary, { force: true });
  }
}
