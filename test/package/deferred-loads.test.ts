import { REPO_ROOT, runNode } from '../factories/cli';

// The compiled package, as an application loads it: which of keel's heavier dependencies a
// service that answers GETs has loaded, and which load with the first request that needs them.
const SCRIPT = `
require('reflect-metadata');
const { createApplication, Module } = require('keel');
const DEFERRED = ['typeorm', 'multer', 'eta', 'commander', '@inquirer', 'body-parser', 'serve-static'];
const loaded = () =>
  DEFERRED.filter((name) => Object.keys(require.cache).some((file) => file.includes('/node_modules/' + name + '/')));
class AppModule {}
Module({})(AppModule);
(async () => {
  const app = await createApplication(AppModule, { logger: false, handleSignals: false });
  app.router.get('/items/:id', (ctx) => ({ id: ctx.param('id') }));
  app.router.post('/items', (ctx) => ({ stored: ctx.req.body }));
  const { url } = await app.listen(0, '127.0.0.1');
  const got = await (await fetch(url + '/items/7')).json();
  const afterGet = loaded();
  const posted = await fetch(url + '/items', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'pen' }),
  });
  console.log(JSON.stringify({ got, afterGet, posted: await posted.json(), afterPost: loaded() }));
  await app.close();
})();
`;

test('a service that answers GETs loads no database, template, multipart, CLI or body-parsing code', async () => {
  const run = await runNode('-e', [SCRIPT], { cwd: REPO_ROOT, timeoutMs: 30_000 });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({
    got: { id: '7' },
    afterGet: [],
    posted: { stored: { name: 'pen' } },
    // Express's index, with its body parsers, loads with the first body.
    afterPost: ['body-parser', 'serve-static'],
  });
});
