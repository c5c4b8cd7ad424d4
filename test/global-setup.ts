import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Compiles `src/` to `dist/` once before the suite: tests that start the framework in a child
 * process load it from there, and must never run against a stale build.
 */
export default function globalSetup(): void {
  const root = path.join(__dirname, '..');
  execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
    timeout: 120_000,
  });
}
