import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';
import { withUrlParts } from './test-databases';

/** An empty database of its own on a server, and a way to look into it. */
export interface ScratchDatabase {
  readonly url: string;
  readonly name: string;
  /** Runs `sql` on a connection of its own to the scratch database and returns the rows. */
  query<Row = Record<string, unknown>>(sql: string): Promise<Row[]>;
  /** Drops the database, closing whatever is still connected to it. */
  drop(): Promise<void>;
}

/**
 * Creates an empty database on the PostgreSQL (`postgres://`) or MariaDB/MySQL (`mysql://`) server
 * that `serverUrl` names, for a test that must start from nothing.
 */
export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `keel_scratch_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const url = withUrlParts(serverUrl, { database: name });
  const isMysql = serverUrl.startsWith('mysql');
  const run = isMysql ? runMysql : runPostgres;
  await run(serverUrl, isMysql ? `CREATE DATABASE \`${name}\`` : `CREATE DATABASE "${name}"`);
  return {
    url,
    name,
    query: <Row>(sql: string) => run(url, sql) as Promise<Row[]>,
    drop: async () => {
      await run(
        serverUrl,
        isMysql ? `DROP DATABASE IF EXISTS \`${name}\`` : `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`,
      );
    },
  };
}

async function runPostgres(url: string, sql: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as unknown[];
  } finally {
    await client.end();
  }
}

async function runMysql(url: string, sql: string): Promise<unknown[]> {
  const connection = await createConnection(url);
  try {
    const [rows] = await connection.query(sql);
    return Array.isArray(rows) ? rows : [];
  } finally {
    await connection.end();
  }
}
