import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { withUrlParts } from '../../../test/factories/test-databases';

/** A database made for one run's broadcast server, and dropped after it. */
export interface RealtimeDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

async function runOn(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * An empty database on the server `serverUrl` names. Broadcast's events table and NOTIFY channel are
 * shared by every application on one database: in a database of its own, no other run's or test's
 * events reach the streams measured, and theirs none of the thousands published here.
 */
export async function createRealtimeDatabase(serverUrl: string): Promise<RealtimeDatabase> {
  const name = `bench_realtime_${process.pid}_${randomBytes(4).toString('hex')}`;
  await runOn(serverUrl, `CREATE DATABASE "${name}"`);
  return {
    url: withUrlParts(serverUrl, { database: name }),
    drop: () => runOn(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
