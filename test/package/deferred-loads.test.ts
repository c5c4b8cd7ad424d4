import { REPO_ROOT, runNode } from '../factories/cli';

// The compiled package, as an application loads it: which of keel's heavier dependencies a
// service that answers GETs has loaded, and which load with the first request that needs them.
// `EXPRESS_FIRST` makes the application hand out its Express app at boot.
const SCRIPT = `
require('reflect-metadata');
const { createApplication, Controller, Get, Module, Query } = require('keel');
const DEFERRED = ['typeorm', 'multer', 'eta', 'commander', '@inquirer', 'body-parser', 'serve-static', 'express/lib/application', 'rate-limiter-flexible', 'prom-client', 'pg-boss'];
const loaded = () =>
  DEFERRED.filter((name) => Object.keys(require.cache).some((file) => file.includes('/node_modules/' + name + (name.includes('/') ? '.js' : '/'))));
class ListQuery {}
class ListController {
  list(query) { return { bound: query instanceof ListQuery }; }
}
Reflect.defineMetadata('design:paramtypes', [ListQuery], ListController.prototype, 'list');
Query()(ListController.prototype, 'list', 0);
Get()(ListController.prototype, 'list', Object.getOwnPropertyDescriptor(ListController.prototype, 'list'));
Controller('list')(ListController);
class AppModule {}
Module({ controllers: [ListController] })(AppModule);
(async () => {
  const app = await createApplication(AppModule, { logger: false, handleSignals: false });
  if (process.env.EXPRESS_FIRST) app.express.set('json spaces', 0);
  const atBoot = loaded();
  app.router.get('/items/:id', (ctx) => ({ id: ctx.param('id'), page: ctx.query('page', '1') }));
  app.router.post('/items', (ctx) => ctx.bind(Object).then(() => ({ posted: true })));
  app.router.get('/tenant', (ctx) => ({ tenant: ctx.requestHeader('X-Tenant', 'public') }));
  app.router.get('/who', (ctx) => ({ agent: ctx.req.get('user-agent') }));
  const { url } = await app.listen(0, '127.0.0.1');
  const got = await (await fetch(url + '/items/7?page=2')).json();
  const missing = (await fetch(url + '/nothing')).status;
  const listed = (await fetch(url + '/list?page=2')).status;
  const afterGet = loaded();
  const posted = await fetch(url + '/items', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'pen' }),
  });
  const afterPost = loaded();
  const form = await fetch(url + '/items', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=pen',
  });
  const afterForm = loaded();
  const tenant = await (await fetch(url + '/tenant', { headers: { 'x-tenant': 'acme' } })).json();
  const afterHeader = loaded();
  const who = await (await fetch(url + '/who', { headers: { 'user-agent': 'probe' } })).json();
  console.log(JSON.stringify({ atBoot, got, missing, listed, afterGet, posted: await posted.json(), afterPost, form: await form.json(), afterForm, tenant, afterHeader, who, afterReq: loaded() }));
  await app.close();
})();
`;

describe('what a service loads, and when', () => {
  test('answering GETs loads no database, template, multipart, CLI, body-parsing, metrics or Express code', async () => {
    const run = await runNode('-e', [SCRIPT], { cwd: REPO_ROOT, timeoutMs: 30_000 });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      atBoot: [],
      got: { id: '7', page: '2' },
      missing: 404,
      // A class with no validation rules is refused: the query was bound, and validated.
      listed: 422,
      afterGet: [],
      posted: { posted: true },
      // A plain JSON body is read without body-parser, which loads with the first other body (a
      // form); Express, with the first read of ctx.req.
      afterPost: [],
      form: { posted: true },
      afterForm: ['body-parser'],
      // A request header is read from Node's raw headers: Express stays unloaded.
      tenant: { tenant: 'acme' },
      afterHeader: ['body-parser'],
      who: { agent: 'probe' },
      afterReq: ['body-parser', 'express/lib/application'],
    });
  });

  test("Express's application loads when the application asks for it, and only its body parsers wait", async () => {
    const run = await runNode('-e', [SCRIPT], {
      cwd: REPO_ROOT,
      timeoutMs: 30_000,
      env: { EXPRESS_FIRST: '1' },
    });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as { atBoot: string[]; afterGet: string[] };
    expect(report.atBoot).toEqual(['express/lib/application']);
    expect(report.afterGet).toEqual(['express/lib/application']);
  });
});
