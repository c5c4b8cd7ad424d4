import path from 'node:path';
import { REPO_ROOT, runNode } from '../factories/cli';

const SCRIPT = path.join(REPO_ROOT, 'test', 'fixtures', 'apps', 'binding-mode.mjs');

// The compiled framework in a process of its own: the switch is read once, when keel loads.
test.each([
  ['by default, through the compiled binding', { KEEL_COMPILED_VALIDATION: '' }, false],
  ['with KEEL_COMPILED_VALIDATION=0, through class-validator', { KEEL_COMPILED_VALIDATION: '0' }, true],
])('a body binds %s', async (_how, env: Record<string, string>, throughExecutor) => {
  const run = await runNode(SCRIPT, [], { env, timeoutMs: 30_000 });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({ threw: true, throughExecutor });
});
