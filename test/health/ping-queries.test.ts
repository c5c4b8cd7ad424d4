// The ping table is internal to readiness, so this unit test reaches into src/ directly.
import { PING_QUERIES, pingQuery } from '../../src/health/ping-queries';

describe('the ping query of each dialect', () => {
  test.each([
    ['postgres', 'SELECT 1'],
    ['mysql', 'SELECT 1'],
    ['mariadb', 'SELECT 1'],
    ['mssql', 'SELECT 1'],
    ['better-sqlite3', 'SELECT 1'],
    ['oracle', 'SELECT 1 FROM DUAL'],
    ['sap', 'SELECT 1 FROM DUMMY'],
  ] as const)('%s pings with %s', (type, query) => {
    expect(pingQuery(type)).toBe(query);
  });

  test('mongodb has no query to ping with, and says so', () => {
    expect(() => pingQuery('mongodb')).toThrow('readiness has no ping query for the mongodb driver');
  });

  test('every other dialect has a query', () => {
    const missing = Object.entries(PING_QUERIES).filter(([type, query]) => type !== 'mongodb' && !query);
    expect(missing).toEqual([]);
  });
});
