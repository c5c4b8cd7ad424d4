import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FRAMEWORK } from './cli';

/** The name the generated projects of the tests carry. */
export const PROJECT_NAME = 'keel-app';

/**
 * Runs the compiled `framework new <name>` in a fresh temporary directory and returns the project's
 * directory; `remove()` deletes it. Synchronous, so a test file can read the project at load time.
 */
export function generateProject(args: readonly string[] = []): { dir: string; remove(): void } {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'keel-new-'));
  execFileSync(process.execPath, [FRAMEWORK, 'new', PROJECT_NAME, ...args], { cwd: parent, stdio: 'pipe' });
  return {
    dir: path.join(parent, PROJECT_NAME),
    remove: () => rmSync(parent, { recursive: true, force: true }),
  };
}
