import type { DatabaseType } from 'typeorm';

/**
 * The cheapest statement each TypeORM dialect answers, as a table: most accept a bare `SELECT 1`;
 * Oracle, SAP HANA and Spanner's emulated dialects need their dummy tables. MongoDB has no SQL, so
 * readiness cannot ping it with a query.
 */
export const PING_QUERIES: Readonly<Record<DatabaseType, string | undefined>> = {
  'aurora-mysql': 'SELECT 1',
  'aurora-postgres': 'SELECT 1',
  'better-sqlite3': 'SELECT 1',
  capacitor: 'SELECT 1',
  cockroachdb: 'SELECT 1',
  cordova: 'SELECT 1',
  expo: 'SELECT 1',
  mariadb: 'SELECT 1',
  mongodb: undefined,
  mssql: 'SELECT 1',
  mysql: 'SELECT 1',
  nativescript: 'SELECT 1',
  oracle: 'SELECT 1 FROM DUAL',
  postgres: 'SELECT 1',
  'react-native': 'SELECT 1',
  sap: 'SELECT 1 FROM DUMMY',
  spanner: 'SELECT 1',
  sqljs: 'SELECT 1',
};

/** The ping statement for `type`; throws, with the reason readiness reports, when it has none. @example pingQuery('oracle') */
export function pingQuery(type: DatabaseType): string {
  const query = PING_QUERIES[type];
  if (query === undefined) throw new Error(`readiness has no ping query for the ${type} driver`);
  return query;
}
