import { closeAll, dataSourceFor, startHealthApp } from './health';
import { describeNeeding, testNeeding } from './requirements';
import { closedPort, withUrlParts } from './test-databases';

/** A database server readiness is tested against, and the words its driver uses. */
export interface Dialect {
  readonly name: string;
  /** The server's URL; undefined when there is none on this machine, and `missing` says why. */
  readonly url: string | undefined;
  readonly missing: string | undefined;
  /** What the driver says of a database that does not exist; undefined when the server cannot show it (the embedded one has one database only), and `noMissingDatabase` says why. */
  readonly missingDatabaseReason: ((database: string) => string) | undefined;
  readonly noMissingDatabase?: string | undefined;
}

/**
 * Registers the readiness tests every dialect must pass: healthy, closed port, missing database,
 * and a DataSource nobody initialised.
 */
export function describeReadinessAgainst(dialect: Dialect): void {
  const { url, missing, missingDatabaseReason, noMissingDatabase } = dialect;
  describeNeeding(missing, `readiness against ${dialect.name}`, () => {
    const serverUrl = url ?? '';
    afterEach(() => closeAll());

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
        json: { status: 'error', db: `connect ECONNREFUSED 127.0.0.1:${port}` },
        cacheControl: 'no-store',
      });
    });

    testNeeding(noMissingDatabase, 'a missing database is 503 with the driver reason', async () => {
      const database = 'keel_no_such_database';
      const health = await startHealthApp(() => dataSourceFor(withUrlParts(serverUrl, { database })));

      const answer = await health.probe();

      expect(answer).toMatchObject({
        status: 503,
        json: { status: 'error', db: missingDatabaseReason?.(database) },
      });
    });

    test('a DataSource never initialised is initialised by the check and answers 200', async () => {
      const dataSource = dataSourceFor(serverUrl);
      const health = await startHealthApp(() => dataSource, { timeoutMs: 3000 });

      const answer = await health.probe();

      expect(answer).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
      expect(dataSource.isInitialized).toBe(true);
    });
  });
}
