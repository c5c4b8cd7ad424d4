import { DataSource } from 'typeorm';
import {
  describeDatabaseUnavailable,
  isDatabaseUnavailable,
  QueryTimeoutError,
} from '../../src/database/database-unavailable';
import { testNeeding } from '../factories/requirements';
import { closedPort, mariadbMissing, mariadbUrl, postgresUrl } from '../factories/test-databases';

jest.setTimeout(20_000);

/** What `work` rejects with. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

async function withDataSource<T>(
  url: string,
  type: 'postgres' | 'mariadb',
  use: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  const dataSource = new DataSource({ type, url } as ConstructorParameters<typeof DataSource>[0]);
  await dataSource.initialize();
  try {
    return await use(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

describe('what counts as the database being unavailable', () => {
  test('a refused connection, as pg reports it', async () => {
    const port = await closedPort();
    const refused = await failureOf(() =>
      new DataSource({ type: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/test` }).initialize(),
    );

    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    expect(describeDatabaseUnavailable(refused)).toEqual({
      status: 503,
      message: 'database unavailable',
      code: 'E_DATABASE_UNAVAILABLE',
      headers: { 'Retry-After': '2' },
      logLevel: 'debug',
    });
  });

  test('a backend terminated by the server (57P01), wrapped in QueryFailedError', async () => {
    const terminated = await withDataSource(postgresUrl(), 'postgres', (dataSource) =>
      failureOf(() => dataSource.query('SELECT pg_terminate_backend(pg_backend_pid())')),
    );

    expect(terminated).toMatchObject({ name: 'QueryFailedError' });
    expect(isDatabaseUnavailable(terminated)).toBe(true);
  });

  test('a statement cancelled by statement_timeout (57014)', async () => {
    const cancelled = await withDataSource(postgresUrl(), 'postgres', (dataSource) =>
      dataSource.transaction(async (manager) => {
        await manager.query('SET LOCAL statement_timeout = 50');
        return failureOf(() => manager.query('SELECT pg_sleep(1)'));
      }),
    ).catch((error: unknown) => error);

    expect(cancelled).toMatchObject({ driverError: { code: '57014' } });
    expect(isDatabaseUnavailable(cancelled)).toBe(true);
  });

  test('errors of the query itself are not: a syntax error, a missing table, an invalid value', async () => {
    const failures = await withDataSource(postgresUrl(), 'postgres', async (dataSource) => [
      await failureOf(() => dataSource.query('SELEC 1')),
      await failureOf(() => dataSource.query('SELECT * FROM keel_no_such_table')),
      await failureOf(() => dataSource.query("SELECT 'x'::int")),
    ]);

    for (const failure of failures) expect(describeDatabaseUnavailable(failure)).toBeUndefined();
  });

  testNeeding(
    mariadbMissing(),
    'a MariaDB connection killed by the server, and MariaDB syntax errors not',
    async () => {
      const [syntax, killed] = await withDataSource(mariadbUrl() as string, 'mariadb', async (dataSource) => [
        await failureOf(() => dataSource.query('SELEC 1')),
        await failureOf(() => dataSource.query('KILL CONNECTION_ID()')),
      ]);

      expect(isDatabaseUnavailable(killed)).toBe(true);
      expect(isDatabaseUnavailable(syntax)).toBe(false);
    },
  );

  test.each([
    ['a query timeout of keel', new QueryTimeoutError(5000)],
    ['pg-pool waiting for a connection', new Error('timeout exceeded when trying to connect')],
    [
      'a connection lost by mysql2',
      Object.assign(new Error('Connection lost: The server closed the connection.'), {
        code: 'PROTOCOL_CONNECTION_LOST',
      }),
    ],
    [
      'too many connections (53300)',
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
    ],
    [
      'an error whose cause is a reset',
      new Error('query failed', {
        cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      }),
    ],
    [
      'a refusal inside an AggregateError',
      new AggregateError(
        [Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })],
        '',
      ),
    ],
  ])('%s is', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test.each([
    ['a plain Error', new Error('boom')],
    ['a string', 'ECONNREFUSED'],
    ['null', null],
    ['an object whose code is not a string', { code: 57014 }],
  ])('%s is not', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
