import { Injectable, Job, Jobs, type Application, type RunningJob } from 'keel';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '../factories/eventually';
import * as jobsTest from '../factories/jobs-app';
import { JOB_OUTCOME_LISTENER, type JobOutcome } from '../../src/jobs/job-outcomes';

interface Run {
  readonly job: string;
  readonly data: unknown;
  readonly attempt: number;
  readonly finished: boolean;
}

// What the handlers did, in this process: every app of the file shares them.
const runs: Run[] = [];
let failuresLeft = 0;
let slowJobMs = 0;
// The burst jobs: how many run at this moment, the most that ever did, and each try's job id.
const burst = { running: 0, most: 0, ids: [] as string[] };

@Injectable()
class Handlers {
  @Job('note')
  note(data: unknown, job: RunningJob) {
    runs.push({ job: 'note', data, attempt: job.attempt, finished: true });
  }

  @Job('flaky', { retries: 3 })
  flaky(data: unknown, job: RunningJob) {
    const failing = failuresLeft > 0;
    failuresLeft -= 1;
    runs.push({ job: 'flaky', data, attempt: job.attempt, finished: !failing });
    if (failing) throw new Error(`flaky try ${job.attempt} failed`);
  }

  @Job('slow', { retries: 1 })
  async slow(data: unknown, job: RunningJob) {
    runs.push({ job: 'slow', data, attempt: job.attempt, finished: false });
    // The first try takes slowJobMs; a retry is quick.
    await sleep(job.attempt === 1 ? slowJobMs : 10, undefined, { signal: job.signal });
    runs.push({ job: 'slow', data, attempt: job.attempt, finished: true });
  }

  @Job('burst', { concurrency: 4 })
  async burst(_data: unknown, job: RunningJob) {
    burst.running += 1;
    burst.most = Math.max(burst.most, burst.running);
    burst.ids.push(job.id);
    // The job's own work, not a wait before an assertion: each runs long enough for the jobs of a
    // batch to overlap, so the test sees how many run at once.
    await sleep(20);
    burst.running -= 1;
  }
}

const finished = (job: string) => runs.filter((run) => run.job === job && run.finished);

jobsTest.describeJobs('jobs on PostgreSQL', () => {
  let schema: string;
  const apps: Application[] = [];
  const outcomes: [string, JobOutcome][] = [];
  const listener = {
    provide: JOB_OUTCOME_LISTENER,
    useValue: (name: string, outcome: JobOutcome) => outcomes.push([name, outcome]),
  };
  const replica = async (options: { shutdownTimeoutMs?: number } = {}) => {
    const app = await jobsTest.bootJobsApp({ schema, providers: [Handlers, listener], ...options });
    apps.push(app);
    return app;
  };

  // pg-boss's own record of the jobs of `name`: once a job is completed nothing runs it again.
  const states = (name: string) =>
    jobsTest.queryTestDatabase<{ state: string; startedAfterS: number }>(
      `SELECT state, extract(epoch FROM started_on - created_on)::float AS "startedAfterS"
       FROM ${schema}.job WHERE name = '${name}' ORDER BY created_on`,
    );

  beforeEach(() => {
    schema = jobsTest.jobsSchema('run');
    runs.length = 0;
    outcomes.length = 0;
    failuresLeft = 0;
    slowJobMs = 0;
    Object.assign(burst, { running: 0, most: 0, ids: [] });
  });
  afterEach(async () => {
    await Promise.allSettled(apps.splice(0).map((app) => app.close()));
    await jobsTest.dropJobsSchema(schema);
  });

  test('an enqueued job runs its @Job handler with its data, once', async () => {
    const app = await replica();
    const id = await app.get(Jobs).enqueue('note', { to: 'ada@example.com' });
    expect(id).toEqual(expect.any(String));
    await eventually(
      async () => expect(await states('note')).toEqual([expect.objectContaining({ state: 'completed' })]),
      {
        within: 20_000,
      },
    );
    expect(runs).toEqual([{ job: 'note', data: { to: 'ada@example.com' }, attempt: 1, finished: true }]);
  }, 30_000);

  test('a job that fails twice is retried with backoff and done on its third try', async () => {
    const app = await replica();
    failuresLeft = 2;
    const startedAt = performance.now();
    await app.get(Jobs).enqueue('flaky', { n: 1 });
    await eventually(() => expect(finished('flaky')).toHaveLength(1), { within: 30_000 });
    expect(runs.map(({ attempt, finished: done }) => [attempt, done])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    // Backoff: at least a second before the first retry, and more before the second.
    expect(performance.now() - startedAt).toBeGreaterThan(2000);
    const [job] = await jobsTest.queryTestDatabase<{ state: string }>(
      `SELECT state FROM ${schema}.job WHERE name = 'flaky'`,
    );
    expect(job?.state).toBe('completed');
  }, 40_000);

  test('every try is reported to JOB_OUTCOME_LISTENER: retried, then failed once no try is left', async () => {
    const app = await replica();
    failuresLeft = 9;
    await app.get(Jobs).enqueue('flaky', {});
    await app.get(Jobs).enqueue('note', {});
    await eventually(() => expect(outcomes.filter(([name]) => name === 'flaky')).toHaveLength(4), {
      within: 40_000,
    });
    expect(outcomes.filter(([name]) => name === 'flaky').map(([, outcome]) => outcome)).toEqual([
      'retried',
      'retried',
      'retried',
      'failed',
    ]);
    expect(outcomes).toContainEqual(['note', 'completed']);
  }, 60_000);

  test('enqueue refuses a name no @Job handles and options of the wrong kind', async () => {
    const jobs = (await replica()).get(Jobs);
    await expect(jobs.enqueue('nope', {})).rejects.toThrow(
      "E_UNKNOWN_JOB: no handler for the job 'nope' (handlers: note, flaky, slow, burst)",
    );
    await expect(jobs.enqueue('note', {}, { delayS: -1 })).rejects.toThrow(
      /delayS is -1; it must be a number of seconds from 0/,
    );
    await expect(jobs.enqueue('note', {}, { singletonKey: '' })).rejects.toThrow(/singletonKey is ""/);
  }, 30_000);

  test('delayS holds a job back until its time', async () => {
    const app = await replica();
    await app.get(Jobs).enqueue('note', { late: true }, { delayS: 3 });
    const [job] = await eventually(
      async () => {
        const jobs = await states('note');
        expect(jobs).toEqual([expect.objectContaining({ state: 'completed' })]);
        return jobs;
      },
      { within: 20_000 },
    );
    // pg-boss's clock: the job was taken no sooner than 3 s after it was stored.
    expect(job?.startedAfterS).toBeGreaterThanOrEqual(3);
    expect(finished('note')).toHaveLength(1);
  }, 30_000);

  test('a second enqueue with the same singletonKey adds nothing; another key adds a job', async () => {
    const app = await replica();
    const jobs = app.get(Jobs);
    const first = await jobs.enqueue('note', { key: 'a' }, { singletonKey: 'order-1', delayS: 1 });
    const again = await jobs.enqueue('note', { key: 'a again' }, { singletonKey: 'order-1' });
    const other = await jobs.enqueue('note', { key: 'b' }, { singletonKey: 'order-2', delayS: 1 });
    expect(first).toEqual(expect.any(String));
    expect(again).toBeNull();
    expect(other).not.toBe(first);
    await eventually(
      async () =>
        expect((await states('note')).map(({ state }) => state)).toEqual(['completed', 'completed']),
      { within: 20_000 },
    );
    // Kept after it ran, the first job still holds its key: the table keeps the two jobs only.
    expect(await jobs.enqueue('note', { key: 'a later' }, { singletonKey: 'order-1' })).toBeNull();
    expect(await states('note')).toHaveLength(2);
    expect(finished('note').map(({ data }) => data)).toEqual(
      expect.arrayContaining([{ key: 'a' }, { key: 'b' }]),
    );
    expect(finished('note')).toHaveLength(2);
  }, 30_000);

  test('a job enqueued before every replica stopped is run by the next one to start', async () => {
    const first = await replica();
    await first.get(Jobs).enqueue('note', { survived: true }, { delayS: 2 });
    await first.close();
    expect(runs).toEqual([]);
    await replica();
    await eventually(() => expect(finished('note')).toHaveLength(1), { within: 20_000 });
    expect(finished('note')[0]?.data).toEqual({ survived: true });
  }, 30_000);

  test('a shutdown takes no new job and lets the running one finish', async () => {
    const app = await replica({ shutdownTimeoutMs: 10_000 });
    slowJobMs = 5000;
    await app.get(Jobs).enqueue('slow', { n: 1 });
    // Due while the shutdown waits for the slow job: a replica still taking jobs would run it.
    await app.get(Jobs).enqueue('note', { after: 'shutdown' }, { delayS: 2 });
    await eventually(() => expect(runs.some((run) => run.job === 'slow')).toBe(true), { within: 20_000 });
    await app.close();
    // close() resolved after the job finished, on its first try, and the later job was left waiting.
    expect(finished('slow').map(({ attempt }) => attempt)).toEqual([1]);
    expect(finished('note')).toEqual([]);
    const states = await jobsTest.queryTestDatabase<{ name: string; state: string }>(
      `SELECT name, state FROM ${schema}.job WHERE name IN ('slow', 'note') ORDER BY name`,
    );
    expect(states).toEqual([
      { name: 'note', state: 'created' },
      { name: 'slow', state: 'completed' },
    ]);
  }, 30_000);

  test('a job still running at the shutdown timeout is released, and another replica retries it', async () => {
    const stopping = await replica({ shutdownTimeoutMs: 1000 });
    slowJobMs = 5000;
    await stopping.get(Jobs).enqueue('slow', { n: 2 });
    await eventually(() => expect(runs.some((run) => run.job === 'slow')).toBe(true), { within: 20_000 });
    const other = await replica();
    const closedAt = performance.now();
    await stopping.close();
    // The shutdown did not wait for the job's 5 s.
    expect(performance.now() - closedAt).toBeLessThan(4500);
    await eventually(
      () => expect(runs).toContainEqual({ job: 'slow', data: { n: 2 }, attempt: 2, finished: true }),
      { within: 20_000 },
    );
    expect(other.isShuttingDown).toBe(false);
  }, 40_000);

  test('a burst of 200 jobs is done, each once, never more than its concurrency (4) at a time', async () => {
    const app = await replica();
    const jobs = app.get(Jobs);
    const ids = new Set<string | null>();
    for (let n = 0; n < 200; n++) ids.add(await jobs.enqueue('burst', { n }));
    await eventually(
      async () =>
        expect((await states('burst')).filter(({ state }) => state === 'completed')).toHaveLength(200),
      { within: 30_000 },
    );
    expect(burst.ids).toHaveLength(200);
    expect(new Set(burst.ids)).toEqual(ids);
    expect(burst.most).toBe(4);
  }, 60_000);
});
