import { closeAll, dataSourceFor, startHealthApp } from '../factories/health';
import { DEFAULT_MARIADB_URL, closedPort, mariadbUrl, withUrlParts } from '../factories/test-databases';

jest.setTimeout(15_000);

afterEach(() => closeAll());

// The default is never used: the block is skipped when no MariaDB server answers.
const serverUrl = mariadbUrl() ?? DEFAULT_MARIADB_URL;

(mariadbUrl() ? describe : describe.skip)('readiness against MariaDB', () => {
  test('a reachable database is 200 {"status":"ready","db":"connected"}, not cached', async () => {
    const dataSource = dataSourceFor(serverUrl);
    await dataSource.initialize();
    const health = await startHealthApp(() => dataSource);

    const answer = await health.probe();

    expect(answer).toMatchObject({
      status: 200,
      json: { status: 'ready', db: 'connected' },
      cacheControl: 'no-store',
    });
  });

  test('a closed port is 503 with the driver reason', async () => {
    const port = await closedPort();
    const health = await startHealthApp(() => dataSourceFor(withUrlParts(serverUrl, { port })));

    const answer = await health.probe();

    expect(answer).toMatchObject({
      status: 503,
      json: {
        status: 'error',
        db: `connect ECONNREFUSED 127.0.0.1:${port}`,
      },
      cacheControl: 'no-store',
    });
  });

  test('a wrong password is 503 with the server\'s "Access denied" reason', async () => {
    const url = withUrlParts(serverUrl, { user: 'root', password: 'wrong' });
    const health = await startHealthApp(() => dataSourceFor(url));

    const answer = await health.probe();

    expect(answer).toMatchObject({
      status: 503,
      json: {
        status: 'error',
        db: `Access denied for user 'root'@'127.0.0.1' (using password: YES)`,
      },
    });
  });

  test('a missing database is 503 with the server\'s "Unknown database" reason', async () => {
    const url = withUrlParts(serverUrl, { database: 'keel_no_such_database' });
    const health = await startHealthApp(() => dataSourceFor(url));

    const answer = await health.probe();

    expect(answer).toMatchObject({
      status: 503,
      json: { status: 'error', db: "Unknown database 'keel_no_such_database'" },
    });
  });

  test('a DataSource never initialised is initialised by the check and answers 200', async () => {
    const dataSource = dataSourceFor(serverUrl);
    const health = await startHealthApp(() => dataSource, { timeoutMs: 3000 });
    expect(dataSource.isInitialized).toBe(false);

    const answer = await health.probe();

    expect(answer).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
    expect(dataSource.isInitialized).toBe(true);
  });
});
