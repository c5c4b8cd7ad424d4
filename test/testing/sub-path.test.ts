import { REPO_ROOT, runNode } from '../factories/cli';

// Run against the compiled package, resolved by name through its `exports`, as an application does.
const SCRIPT = `
require('reflect-metadata');
const { createApplication, Module } = require('keel');
const loaded = () => Object.keys(require.cache).filter((file) => /light-my-request|[\\\\/]dist[\\\\/]testing[\\\\/]/.test(file));
class AppModule {}
Module({})(AppModule);
(async () => {
  const app = await createApplication(AppModule, { logger: false, handleSignals: false });
  app.router.get('/', () => ({ hello: 'keel' }));
  const before = loaded().length;
  const { createTestingApplication } = require('keel/testing');
  const tested = await createTestingApplication(AppModule).boot({ logger: false });
  tested.router.get('/', () => ({ hello: 'inject' }));
  const res = await tested.inject('/');
  console.log(JSON.stringify({ before, after: loaded().length, status: res.statusCode, body: res.json() }));
  await Promise.all([app.close(), tested.close()]);
})();
`;

test('keel loads nothing of keel/testing; keel/testing resolves by name from the compiled package', async () => {
  const run = await runNode('-e', [SCRIPT], { cwd: REPO_ROOT, timeoutMs: 30_000 });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({
    before: 0,
    after: expect.any(Number),
    status: 200,
    body: { hello: 'inject' },
  });
  expect(JSON.parse(run.stdout).after).toBeGreaterThan(0);
});
