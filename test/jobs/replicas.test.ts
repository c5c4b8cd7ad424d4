import { killRunningApps, startApp, type ChildApp } from '../factories/child-app';
import { eventually } from '../factories/eventually';
import * as jobsTest from '../factories/jobs-app';
import { postgresUrl } from '../factories/test-databases';

interface Try {
  readonly job: string;
  readonly attempt: number;
  readonly pid: number;
  readonly finished: boolean;
}

// Two processes of the fixture application on one PostgreSQL: every try of a job is a row in
// `runs`, written by the process that made it.
const schema = jobsTest.jobsSchema('replicas');
const runs = `${schema}_runs`;

function replica(env: Record<string, string> = {}): Promise<ChildApp> {
  return startApp(
    { DATABASE_URL: postgresUrl(), JOBS_SCHEMA: schema, RUNS_TABLE: runs, ...env },
    'jobs-app.mjs',
  );
}

async function enqueue(app: ChildApp, query: string): Promise<string[]> {
  const res = await fetch(`${app.url}/enqueue?${query}`, { method: 'POST' });
  expect(res.status).toBe(201);
  return ((await res.json()) as { ids: string[] }).ids;
}

// Each job's state and tries as pg-boss keeps them.
const jobStates = (ids: readonly string[]) =>
  jobsTest.queryTestDatabase<{ id: string; state: string; retryCount: number }>(
    `SELECT id, state, retry_count AS "retryCount" FROM ${schema}.job WHERE id IN (${ids.map((id) => `'${id}'`).join(', ')}) ORDER BY id`,
  );

const tries = () =>
  jobsTest.queryTestDatabase<Try>(`SELECT job, attempt, pid, finished FROM ${runs} ORDER BY id`);
const finishedTries = async () => (await tries()).filter(({ finished }) => finished);

jobsTest.describeJobs('jobs shared by two processes', () => {
  beforeAll(() =>
    jobsTest.queryTestDatabase(
      `CREATE TABLE ${runs} (id serial PRIMARY KEY, job uuid NOT NULL, attempt int NOT NULL, pid int NOT NULL, finished boolean NOT NULL)`,
    ),
  );
  beforeEach(() => jobsTest.queryTestDatabase(`TRUNCATE ${runs}`));
  afterEach(() => killRunningApps());
  afterAll(async () => {
    await jobsTest.queryTestDatabase(`DROP TABLE IF EXISTS ${runs}`);
    await jobsTest.dropJobsSchema(schema);
  });

  test('30 jobs enqueued by a replica then killed with SIGKILL are all done by the other, once each', async () => {
    const [doomed, survivor] = await Promise.all([replica(), replica()]);
    const ids = await enqueue(doomed, 'job=record&n=30&delayS=3');
    doomed.child.kill('SIGKILL');
    expect((await doomed.exited).signal).toBe('SIGKILL');
    await eventually(async () => expect(await finishedTries()).toHaveLength(30), { within: 40_000 });
    const done = await finishedTries();
    expect(new Set(done.map(({ job }) => job))).toEqual(new Set(ids));
    expect(done).toHaveLength(30);
    expect(done.every(({ pid }) => pid === survivor.child.pid)).toBe(true);
  }, 60_000);

  test('SIGTERM during a long job: the job finishes on its replica before it exits, once', async () => {
    const app = await replica({ LONG_JOB_MS: '2000', SHUTDOWN_TIMEOUT_MS: '10000' });
    const [id] = await enqueue(app, 'job=long');
    await eventually(async () => expect(await tries()).toHaveLength(1), { within: 20_000 });
    app.child.kill('SIGTERM');
    expect((await app.exited).code).toBe(0);
    expect(await tries()).toEqual([
      { job: id, attempt: 1, pid: app.child.pid, finished: false },
      { job: id, attempt: 1, pid: app.child.pid, finished: true },
    ]);
  }, 40_000);

  test('SIGTERM past the shutdown timeout: the job is released and the other replica retries it', async () => {
    const stopping = await replica({ LONG_JOB_MS: '8000', SHUTDOWN_TIMEOUT_MS: '1000' });
    const [id] = await enqueue(stopping, 'job=long');
    await eventually(async () => expect(await tries()).toHaveLength(1), { within: 20_000 });
    const other = await replica({ LONG_JOB_MS: '200' });
    stopping.child.kill('SIGTERM');
    await stopping.exited;
    await eventually(async () => expect(await finishedTries()).toHaveLength(1), { within: 30_000 });
    expect(await finishedTries()).toEqual([{ job: id, attempt: 2, pid: other.child.pid, finished: true }]);
    const cut = (await tries()).filter(({ pid }) => pid === stopping.child.pid);
    expect(cut).toEqual([{ job: id, attempt: 1, pid: stopping.child.pid, finished: false }]);
  }, 60_000);

  test('SIGKILL while a replica holds jobs: its heartbeats stop, and the other replica does every job within 45 s', async () => {
    // Its jobs would take ten minutes: they end only by being taken from it.
    const doomed = await replica({ LONG_JOB_MS: '600000', LONG_CONCURRENCY: '3' });
    const ids = await enqueue(doomed, 'job=long&n=5');
    await eventually(async () => expect(await tries()).toHaveLength(3), { within: 20_000 });
    const held = (await tries()).map(({ job }) => job);
    await replica({ LONG_JOB_MS: '100', LONG_CONCURRENCY: '3' });
    doomed.child.kill('SIGKILL');
    expect((await doomed.exited).signal).toBe('SIGKILL');
    await eventually(
      async () => expect((await jobStates(ids)).every(({ state }) => state === 'completed')).toBe(true),
      { within: 45_000 },
    );
    // The jobs the killed replica held were tried again, as their second try.
    const states = await jobStates(held);
    expect(states.map(({ retryCount }) => retryCount)).toEqual([1, 1, 1]);
  }, 90_000);

  test('a job that runs past twice the heartbeat timeout keeps its replica: one try, completed', async () => {
    const app = await replica({ LONG_JOB_MS: '25000' });
    const [id = ''] = await enqueue(app, 'job=long');
    await eventually(async () => expect(await finishedTries()).toHaveLength(1), { within: 40_000 });
    expect(await tries()).toEqual([
      { job: id, attempt: 1, pid: app.child.pid, finished: false },
      { job: id, attempt: 1, pid: app.child.pid, finished: true },
    ]);
    expect(await jobStates([id])).toEqual([{ id, state: 'completed', retryCount: 0 }]);
  }, 60_000);
});
