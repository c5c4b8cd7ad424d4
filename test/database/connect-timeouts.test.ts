import type { DataSourceOptions } from 'typeorm';
// withConnectTimeout is internal to DatabaseModule, so this unit test reaches into src/ directly.
import { DEFAULT_CONNECT_TIMEOUT_MS, withConnectTimeout } from '../../src/database/connect-timeouts';

describe('the default connect timeout', () => {
  test.each([
    ['postgres', 'connectTimeoutMS'],
    ['mysql', 'connectTimeout'],
    ['mariadb', 'connectTimeout'],
    ['mssql', 'connectionTimeout'],
  ] as const)('%s gets %s', (type, option) => {
    const options = withConnectTimeout({ type, database: 'app' } as DataSourceOptions);
    expect(options).toEqual({ type, database: 'app', [option]: DEFAULT_CONNECT_TIMEOUT_MS });
  });

  test('cockroachdb gets it in extra, where its driver reads it, next to the extra given', () => {
    const options = withConnectTimeout({ type: 'cockroachdb', timeTravelQueries: false, extra: { max: 4 } });
    expect(options).toMatchObject({ extra: { max: 4, connectionTimeoutMillis: DEFAULT_CONNECT_TIMEOUT_MS } });
  });

  test('a timeout the options set is kept, and the options are not changed', () => {
    const given = { type: 'postgres', connectTimeoutMS: 250 } as const;
    expect(withConnectTimeout(given)).toBe(given);
    expect(given).toEqual({ type: 'postgres', connectTimeoutMS: 250 });
  });

  test('drivers without a connect timeout are left as they are', () => {
    const given = { type: 'better-sqlite3', database: ':memory:' } as const;
    expect(withConnectTimeout(given)).toBe(given);
  });
});
