import { initializeOnce, registerHealthRoutes } from 'keel';
import { eventually } from '../factories/eventually';
import { captureLog } from '../factories/log';
import { closeAll, dataSourceFor, startHealthApp } from '../factories/health';
import { PostgresProxy } from '../factories/postgres-proxy';
import { describeReadinessAgainst } from '../factories/readiness-dialects';
import {
  closedPort,
  isPostgresServer,
  postgresUrl,
  withUrlParts,
  postgresServerMissing,
} from '../factories/test-databases';

jest.setTimeout(15_000);

afterEach(() => closeAll());

describeReadinessAgainst({
  name: 'PostgreSQL',
  url: postgresUrl(),
  missing: undefined,
  missingDatabaseReason: isPostgresServer()
    ? (database) => `database "${database}" does not exist`
    : undefined,
  noMissingDatabase: postgresServerMissing(),
});

describe('readiness against PostgreSQL', () => {
  test('GET /health is 200 {"status":"ok"} and sends the database no query', async () => {
    const proxy = await PostgresProxy.start(postgresUrl());
    const dataSource = dataSourceFor(proxy.url);
    const health = await startHealthApp(() => dataSource);
    expect((await health.probe()).status).toBe(200);
    const queriesBefore = proxy.queries;

    const answers = await Promise.all(Array.from({ length: 20 }, () => health.probe('/health')));

    expect(answers.map(({ status, json }) => ({ status, json }))).toEqual(
      Array.from({ length: 20 }, () => ({ status: 200, json: { status: 'ok' } })),
    );
    expect(answers[0]?.cacheControl).toBe('no-store');
    expect(queriesBefore).toBeGreaterThan(0);
    expect(proxy.queries).toBe(queriesBefore);
    await proxy.close();
  });

  test('a DataSource never initialised is initialised by the check, once for every route set asking', async () => {
    const proxy = await PostgresProxy.start(postgresUrl());
    const dataSource = dataSourceFor(proxy.url);
    const health = await startHealthApp(() => dataSource, { timeoutMs: 3000 });
    registerHealthRoutes(health.app.router, () => dataSource, { path: '/status', timeoutMs: 3000 });

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => health.probe(index % 2 ? '/health/ready' : '/status/ready')),
    );

    expect(answers.map(({ status, json }) => ({ status, json }))).toEqual(
      Array.from({ length: 20 }, () => ({ status: 200, json: { status: 'ready', db: 'connected' } })),
    );
    expect(dataSource.isInitialized).toBe(true);
    // initialize() asks for the server version once; a second initialize() would ask again.
    expect(proxy.queryTexts.filter((text) => /version\(\)/i.test(text))).toHaveLength(1);
    await proxy.close();
  });

  test('exposeReason: false answers "unavailable" instead of the driver reason', async () => {
    const url = withUrlParts(postgresUrl(), { port: await closedPort() });
    const health = await startHealthApp(() => dataSourceFor(url), { exposeReason: false });

    const answer = await health.probe();

    expect(answer).toMatchObject({ status: 503, json: { status: 'error', db: 'unavailable' } });
  });

  test('logs each change of readiness once, with the real reason even when the answer hides it', async () => {
    const proxy = await PostgresProxy.start(postgresUrl(), 'down');
    const log = captureLog();
    const dataSource = dataSourceFor(proxy.url);
    const health = await startHealthApp(() => dataSource, { exposeReason: false }, { logger: log.logger });

    await health.probe();
    await health.probe();
    await proxy.setMode('forward');
    await eventually(async () => expect(await health.probe()).toMatchObject({ status: 200 }), {
      within: 5000,
      every: 20,
      what: 'a ready answer',
    });
    await health.probe();
    await proxy.close();

    const changes = log
      .entries()
      .filter((entry) => entry.msg === 'not ready' || entry.msg?.startsWith('ready'))
      .map((entry) => ({ msg: entry.msg, db: (entry as { db?: string }).db }));
    expect(changes).toEqual([
      { msg: 'not ready', db: `connect ECONNREFUSED 127.0.0.1:${proxy.port}` },
      { msg: 'ready: the database answers', db: 'connected' },
    ]);
  });

  test('a DataSource the application initialises with initializeOnce is joined, not initialised twice', async () => {
    const proxy = await PostgresProxy.start(postgresUrl());
    const dataSource = dataSourceFor(proxy.url);
    const initializing = initializeOnce(dataSource);
    const health = await startHealthApp(() => dataSource, { timeoutMs: 3000 });

    const answer = await health.probe();
    await initializing;

    expect(answer).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
    expect(proxy.queryTexts.filter((text) => /version\(\)/i.test(text))).toHaveLength(1);
    await proxy.close();
  });
});
