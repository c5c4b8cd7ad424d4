import type { MigrationInterface } from 'typeorm';
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { eventually } from '../factories/eventually';
import { closeAll, dataSourceFor, startHealthApp, type HealthApp, type Probe } from '../factories/health';
import { PostgresProxy } from '../factories/postgres-proxy';
import { testNeeding } from '../factories/requirements';
import { postgresServerMissing, postgresUrl } from '../factories/test-databases';

jest.setTimeout(20_000);

const run = promisify(execFile);

const proxies: PostgresProxy[] = [];
afterEach(async () => {
  await closeAll();
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function proxyToPostgres(): Promise<PostgresProxy> {
  const proxy = await PostgresProxy.start(postgresUrl());
  proxies.push(proxy);
  return proxy;
}

/** Probes until the answer is 200, at most `timeoutMs`; returns every answer seen, in order. */
async function probeUntilReady(health: HealthApp, timeoutMs: number): Promise<Probe[]> {
  const answers: Probe[] = [];
  await eventually(
    async () => {
      const answer = await health.probe();
      answers.push(answer);
      expect(answer).toMatchObject({ status: 200 });
    },
    { within: timeoutMs, what: 'a ready answer' },
  );
  return answers;
}

describe('readiness when the database hangs', () => {
  test('answers 503 "timeout after 500 ms" promptly, with one ping in flight for 100 concurrent probes', async () => {
    const proxy = await proxyToPostgres();
    const dataSource = dataSourceFor(proxy.url);
    const health = await startHealthApp(() => dataSource);
    // 100 connections opened beforehand, so that latencies are the probes', not TCP set-up's.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
    await Promise.all(Array.from({ length: 100 }, () => health.probe('/health', agent)));
    expect((await health.probe(undefined, agent)).status).toBe(200);

    await proxy.setMode('blackhole');
    const single = await health.probe();
    const flood = await Promise.all(Array.from({ length: 100 }, () => health.probe(undefined, agent)));
    agent.destroy();

    expect(single).toMatchObject({ status: 503, json: { status: 'error', db: 'timeout after 500 ms' } });
    expect(single.elapsedMs).toBeLessThan(600);
    expect(flood.map(({ status, json }) => ({ status, json }))).toEqual(
      Array.from({ length: 100 }, () => ({
        status: 503,
        json: { status: 'error', db: 'timeout after 500 ms' },
      })),
    );
    // Every probe waits on the one ping sent when the hang began: the database side saw exactly one.
    expect(proxy.heldQueries).toBe(1);

    await proxy.setMode('forward');
    const recovered = await probeUntilReady(health, 3000);
    expect(recovered.at(-1)).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
  });

  test('a database that accepts TCP and never answers, before initialising, is 503 within the timeout', async () => {
    const proxy = await proxyToPostgres();
    await proxy.setMode('blackhole');
    const health = await startHealthApp(() => dataSourceFor(proxy.url), { timeoutMs: 300 });

    const answer = await health.probe();

    expect(answer).toMatchObject({ status: 503, json: { status: 'error', db: 'timeout after 300 ms' } });
    expect(answer.elapsedMs).toBeLessThan(400);
  });
});

describe('readiness recovers without a restart', () => {
  test('after a ping abandoned while it waited for a pooled connection, and gives the connection back', async () => {
    const fixture = path.join(__dirname, '..', 'fixtures', 'apps', 'pool-starvation.mjs');
    // A leaked connection would hang the fixture (TypeORM's destroy() never returns): the time limit
    // turns that into a failure.
    const { stdout } = await run(process.execPath, [fixture], {
      env: { ...process.env, DATABASE_URL: postgresUrl() },
      timeout: 15_000,
    });

    expect(JSON.parse(stdout)).toEqual({
      first: { status: 503, body: { status: 'error', db: 'timeout after 100 ms' } },
      last: { status: 200, body: { status: 'ready', db: 'connected' } },
      afterwards: [{ ok: 1 }],
      destroyed: true,
    });
  });

  test('after the network silently drops the connection a ping was sent on', async () => {
    const proxy = await proxyToPostgres();
    const dataSource = dataSourceFor(proxy.url);
    const health = await startHealthApp(() => dataSource, { timeoutMs: 100 });
    // Connecting may take longer than one probe's 100 ms on a busy machine: ready first.
    expect((await probeUntilReady(health, 5000)).at(-1)?.status).toBe(200);
    const pingsBefore = proxy.queryTexts.filter((text) => text === 'SELECT 1').length;

    proxy.severConnections();
    const answers = await probeUntilReady(health, 5000);

    // The lost ping is abandoned after ten timeouts: its connection is closed, the next ping opens one.
    expect(answers[0]).toMatchObject({ status: 503, json: { db: 'timeout after 100 ms' } });
    expect(answers.at(-1)).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
    expect(proxy.queryTexts.filter((text) => text === 'SELECT 1').length - pingsBefore).toBe(2);
  });

  testNeeding(
    postgresServerMissing(),
    "after the app's backend is killed with pg_terminate_backend",
    async () => {
      const applicationName = `keel-terminate-${process.pid}`;
      const dataSource = dataSourceFor(postgresUrl(), { applicationName });
      const health = await startHealthApp(() => dataSource);
      expect((await health.probe()).status).toBe(200);

      const admin = new Client({ connectionString: postgresUrl() });
      await admin.connect();
      const backends = async () =>
        (
          await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
            applicationName,
          ])
        ).rows.map((row) => row.pid);
      const killed = await backends();
      await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [killed]);

      const answers = await probeUntilReady(health, 5000);
      const serving = await backends();
      await admin.end();

      expect(killed.length).toBeGreaterThan(0);
      expect(answers.at(-1)).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
      // Answered over a new backend: none of the killed ones is serving the application.
      expect(serving.length).toBeGreaterThan(0);
      expect(serving.filter((pid) => killed.includes(pid))).toEqual([]);
    },
  );

  test('when the database was down at boot and comes up later', async () => {
    const proxy = await proxyToPostgres();
    await proxy.setMode('down');
    const dataSource = dataSourceFor(proxy.url);
    const health = await startHealthApp(() => dataSource);

    expect(await health.probe('/health')).toMatchObject({ status: 200, json: { status: 'ok' } });
    const down = await health.probe();
    expect(down).toMatchObject({
      status: 503,
      json: { status: 'error', db: `connect ECONNREFUSED 127.0.0.1:${proxy.port}` },
    });

    await proxy.setMode('forward');
    const answers = await probeUntilReady(health, 5000);
    expect(answers.at(-1)).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
  });
});

describe('readiness when the resolver cannot give a DataSource', () => {
  test('a resolver that throws is 503 with its message', async () => {
    const health = await startHealthApp(() => {
      throw new Error('configuration not loaded');
    });
    expect(await health.probe()).toMatchObject({
      status: 503,
      json: { status: 'error', db: 'configuration not loaded' },
    });
  });

  test('an async resolver that rejects is 503 with its message', async () => {
    const health = await startHealthApp(async () => Promise.reject(new Error('vault unreachable')));
    expect(await health.probe()).toMatchObject({
      status: 503,
      json: { status: 'error', db: 'vault unreachable' },
    });
  });

  test('a resolver that returns nothing is 503 "no DataSource was found"', async () => {
    const health = await startHealthApp(() => undefined);
    expect(await health.probe()).toMatchObject({
      status: 503,
      json: { status: 'error', db: 'no DataSource was found' },
    });
  });

  test('a DataSource that cannot initialise is 503 with the reason, and stays uninitialised', async () => {
    class BrokenMigration1700000000000 implements MigrationInterface {
      async up(): Promise<void> {
        throw new Error('column "total" already exists');
      }
      async down(): Promise<void> {}
    }
    const dataSource = dataSourceFor(postgresUrl(), {
      migrations: [BrokenMigration1700000000000],
      migrationsRun: true,
      migrationsTableName: 'keel_readiness_test_migrations',
    });
    const health = await startHealthApp(() => dataSource, { timeoutMs: 3000 });

    const answer = await health.probe();

    expect(answer).toMatchObject({
      status: 503,
      json: { status: 'error', db: 'column "total" already exists' },
    });
    expect(dataSource.isInitialized).toBe(false);
  });

  test('the resolver is called at check time, not at registration', async () => {
    let calls = 0;
    const health = await startHealthApp(() => {
      calls += 1;
      return undefined;
    });
    expect(calls).toBe(0);
    await health.probe();
    await health.probe();
    expect(calls).toBe(2);
  });
});
