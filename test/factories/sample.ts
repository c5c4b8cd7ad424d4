import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { killRunningApps, logged, startChild, type ChildApp, type ChildExit } from './child-app';
import { openFormSession, type FormSession } from './form-session';
import { waitForStatus } from './http-status';
import { withUrlParts } from './test-databases';

/** The compiled sample application (the global setup builds it). */
export const SAMPLE_MAIN = path.join(__dirname, '..', '..', 'sample', 'dist', 'main.js');

/** The operator's account the sample is started with: it logs in, and obtains API tokens. */
export const SAMPLE_OPERATOR = { email: 'operator@example.test', password: 'correct horse battery' };

/** The key the sample signs its sessions with in the tests. */
export const SAMPLE_SESSION_SECRET = 'test-session-secret-9d2e7a';

/** The settings that give a sample its operator; logins limited generously, as many tests log in. */
export const SAMPLE_OPERATOR_ENV = {
  ADMIN_EMAIL: SAMPLE_OPERATOR.email,
  ADMIN_PASSWORD: SAMPLE_OPERATOR.password,
  LOGINS_PER_MINUTE: '1000',
};

/**
 * The header that lets a request write through the JSON API of the sample at `url` (or of any
 * replica sharing its database): a token `POST /api/tokens` issued to the operator, once per URL.
 *
 * @example
 * const headers = { 'content-type': 'application/json', ...(await sampleAuthorization(sample().url)) };
 */
export function sampleAuthorization(url: string): Promise<{ authorization: string }> {
  let issued = issuedTokens.get(url);
  if (!issued) {
    issued = issueToken(url);
    issuedTokens.set(url, issued);
    issued.catch(() => issuedTokens.delete(url));
  }
  return issued;
}

/** The order the sample's tests create when what it holds does not matter. */
export const SAMPLE_ORDER = { customer: 'Ada Lovelace', product: 'Brass lamp', quantity: 2 };

/**
 * Creates `order` through the JSON API of the sample at `url` with the operator's token, expecting
 * 201; resolves with the order answered (its `id` the database's).
 *
 * @example
 * const { id } = await createSampleOrder(sample().url, { ...SAMPLE_ORDER, customer: 'Grace Hopper' });
 */
export async function createSampleOrder(
  url: string,
  order: Readonly<Record<string, unknown>> = SAMPLE_ORDER,
): Promise<Record<string, unknown> & { id: number }> {
  const res = await fetch(`${url}/api/orders`, {
    method: 'POST',
    headers: { ...(await sampleAuthorization(url)), 'content-type': 'application/json' },
    body: JSON.stringify(order),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Record<string, unknown> & { id: number };
}

/**
 * A browser's session with the sample at `url`, logged in as its operator, holding the `_csrf`
 * token of `formPath`'s form (the order form unless another is named).
 *
 * @example
 * const browser = await openOperatorSession(sample().url);
 */
export function openOperatorSession(url: string, formPath = '/orders/create'): Promise<FormSession> {
  return openFormSession(url, formPath, { logInAs: SAMPLE_OPERATOR });
}

const issuedTokens = new Map<string, Promise<{ authorization: string }>>();

/**
 * A token of the operator's issued now by the sample at `url`, not one kept from before: for
 * samples on a database of their own, which a token of an earlier sample on the same port would not open.
 *
 * @example const { authorization } = await issueToken(replica.url);
 */
export async function issueToken(url: string): Promise<{ authorization: string }> {
  const res = await fetch(`${url}/api/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...SAMPLE_OPERATOR, name: 'tests' }),
  });
  if (res.status !== 201)
    throw new Error(`POST ${url}/api/tokens answered ${res.status}: ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

/** Where the sample keeps its data. */
export type SampleDatabase =
  /** The embedded database, in `dataDir` (kept after stop()) or a temporary directory (removed). */
  | { readonly embedded: true; readonly dataDir?: string }
  /** A database of its own created on the PostgreSQL server at `scratchOn`, dropped by stop(). */
  | { readonly scratchOn: string }
  /** A PostgreSQL database the test owns. */
  | { readonly url: string };

/** The sample running in its own process. */
export interface RunningSample extends ChildApp {
  /** SIGTERM, then resolves with the exit once the process has ended and its data is removed. */
  stop(): Promise<ChildExit>;
}

/**
 * Starts `node sample/dist/main.js` on a free port, as a deployment would: on a PostgreSQL URL, or
 * (embedded) with no `DATABASE_URL` and the embedded database in a fresh temporary directory.
 */
export async function startSample(
  database: SampleDatabase,
  { env = {} }: { env?: Record<string, string | undefined> } = {},
): Promise<RunningSample> {
  const ownDataDir =
    'embedded' in database && !database.dataDir
      ? await mkdtemp(path.join(os.tmpdir(), 'keel-sample-'))
      : undefined;
  const dataDir = 'embedded' in database ? (database.dataDir ?? ownDataDir) : undefined;
  const scratch = 'scratchOn' in database ? await scratchDatabase(database.scratchOn) : undefined;
  const cleanUp = async () => {
    if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    await scratch?.drop();
  };
  const app = await startChild({
    args: [SAMPLE_MAIN],
    env: {
      PORT: '0',
      METRICS_PORT: '0',
      DATABASE_URL: 'url' in database ? database.url : scratch?.url,
      DATA_DIR: dataDir,
      ...SAMPLE_OPERATOR_ENV,
      SESSION_SECRET: SAMPLE_SESSION_SECRET,
      ...env,
    },
    urlFrom: (lines) => logged(lines, 'listening')[0]?.url as string | undefined,
    startTimeoutMs: 60_000,
  }).catch(async (error: unknown) => {
    await cleanUp();
    throw error;
  });
  return {
    ...app,
    async stop() {
      if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGTERM');
      const exit = await app.exited;
      await cleanUp();
      return exit;
    },
  };
}

/** Polls `GET /health/ready` until it answers 200 (the sample migrates in the background at start). */
export function waitUntilReady(url: string, timeoutMs = 45_000): Promise<void> {
  return waitForStatus(`${url}/health/ready`, 200, timeoutMs);
}

/** A database of its own on the PostgreSQL server at `serverUrl`; `drop()` removes it. */
export async function scratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `keel_sample_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    url: withUrlParts(serverUrl, { database: name }),
    drop: () =>
      withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

async function withClient(url: string, use: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Registers a `beforeAll` that starts the sample on `database` and waits until it is ready, and an
 * `afterAll` that stops it; returns a getter for the running sample.
 */
export function useSample(
  database: SampleDatabase,
  options: Parameters<typeof startSample>[1] = {},
): () => RunningSample {
  let sample: RunningSample | undefined;

  beforeAll(async () => {
    sample = await startSample(database, options);
    await waitUntilReady(sample.url);
  }, 120_000);

  afterAll(async () => {
    await sample?.stop();
    killRunningApps();
  }, 30_000);

  return () => {
    if (!sample) throw new Error('the sample did not start: see the beforeAll error');
    return sample;
  };
}
