import { isProcessRunning } from '../embedded/data-dir-lock';
import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { messageOf } from '../errors/describe-value';
import { TestingErrors } from '../errors/testing-errors';

/** A database made for one testing application, and how to remove it. */
export interface TestDatabaseCopy {
  readonly url: string;
  /** Removes the database, ending whatever is still connected to it. */
  drop(): Promise<void>;
}

/** The prefixes of what tests leave on a server: `keel_test_<pid>_<random>`, `keel_template_<schema key>`. */
const COPY_PREFIX = 'keel_test_';
const TEMPLATE_PREFIX = 'keel_template_';

// The advisory lock (on the database the URL names) that makes and sweeps templates one process at a time.
const TEMPLATES_LOCK = 0x6b65656c; // 'keel'

const CONNECT_TIMEOUT_MS = 10_000;

// One template per server and schema, made or found once by each process (each test file, under Jest).
const templates = new Map<string, Promise<void>>();

/**
 * A new database on the PostgreSQL server `serverUrl` names, copied (`CREATE DATABASE ... TEMPLATE`)
 * from the template of the schema `key` names, which `migrate` fills the first time any process
 * asks for it: every process waits for that under an advisory lock, so parallel test workers
 * migrate it once. A template that is complete is marked `IS_TEMPLATE`; one a crashed run left
 * half-made is made again. Copies a dead process left on a server of this machine are dropped then.
 *
 * @example
 * const copy = await copyOnServer(process.env.DATABASE_URL, key, (url) => migrateTemplate({ ...options, url }));
 */
export async function copyOnServer(
  serverUrl: string,
  key: string,
  migrate: (templateUrl: string) => Promise<void>,
): Promise<TestDatabaseCopy> {
  const template = `${TEMPLATE_PREFIX}${key}`;
  const memo = `${serverUrl}\0${template}`;
  let ready = templates.get(memo);
  if (!ready) {
    ready = prepareTemplate(serverUrl, template, migrate);
    templates.set(memo, ready);
    ready.catch(() => templates.delete(memo));
  }
  await ready;
  const name = `${COPY_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  return {
    url: withDatabase(serverUrl, name),
    drop: async () => {
      await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function prepareTemplate(
  serverUrl: string,
  template: string,
  migrate: (templateUrl: string) => Promise<void>,
): Promise<void> {
  await onServer(serverUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATES_LOCK]);
    try {
      await sweepCopiesOfDeadProcesses(client, serverUrl);
      const { rows } = await client.query<{ datistemplate: boolean }>(
        'SELECT datistemplate FROM pg_database WHERE datname = $1',
        [template],
      );
      if (rows[0]?.datistemplate) return;
      await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${template}"`);
      await migrate(withDatabase(serverUrl, template));
      await client.query(`ALTER DATABASE "${template}" IS_TEMPLATE true`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATES_LOCK]).catch(() => undefined);
    }
  });
}

// A process's pid says whether it still runs only on the machine it ran on: copies on a server
// elsewhere are left alone (the prefix says what they are, for an operator to drop).
async function sweepCopiesOfDeadProcesses(client: Client, serverUrl: string): Promise<void> {
  if (!isLoopback(new URL(serverUrl).hostname)) return;
  const { rows } = await client.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname LIKE 'keel\\_test\\_%'",
  );
  for (const { datname } of rows) {
    const pid = Number(datname.slice(COPY_PREFIX.length).split('_')[0]);
    // A name without a pid is not one of keel's copies: left alone.
    if (Number.isInteger(pid) && pid > 0 && !isProcessRunning(pid)) {
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.');
}

async function onServer<T>(serverUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- pg is there wherever a PostgreSQL DataSource is
  const { Client } = require('pg') as typeof import('pg');
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect().catch(async (error: unknown) => {
    await client.end().catch(() => undefined);
    throw TestingErrors.testDatabaseUnreachable(withoutPassword(serverUrl), messageOf(error));
  });
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `url` naming `database` instead. @example withDatabase('postgres://h/test', 'keel_test_1_ab') // 'postgres://h/keel_test_1_ab' */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** `url` as an error message may show it. @example withoutPassword('postgres://u:secret@h/db') // 'postgres://u:***@h/db' */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
