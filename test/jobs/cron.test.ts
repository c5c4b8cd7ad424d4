import { killRunningApps, startApp } from '../factories/child-app';
import { eventually } from '../factories/eventually';
import * as jobsTest from '../factories/jobs-app';
import { postgresUrl } from '../factories/test-databases';
import { loadPgBoss } from '../../src/jobs/pg-boss';

const schema = jobsTest.jobsSchema('cron');
const ticks = `${schema}_ticks`;

interface Tick {
  readonly ranAt: Date;
  readonly pid: number;
}

const ticksRun = () =>
  jobsTest.queryTestDatabase<Tick>(`SELECT ran_at AS "ranAt", pid FROM ${ticks} ORDER BY id`);

jobsTest.describeJobs('schedules shared by replicas', () => {
  beforeAll(async () => {
    await jobsTest.queryTestDatabase(
      `CREATE TABLE ${ticks} (id serial PRIMARY KEY, ran_at timestamptz NOT NULL DEFAULT now(), pid int NOT NULL)`,
    );
    // A schedule an earlier release declared, whose @Cron is gone.
    const boss = new (loadPgBoss().PgBoss)({
      connectionString: postgresUrl(),
      schema,
      supervise: false,
      schedule: false,
    });
    await boss.start();
    await boss.createQueue('Gone.tick');
    await boss.schedule('Gone.tick', '* * * * *');
    await boss.stop({ graceful: false, close: true });
  });
  afterAll(async () => {
    killRunningApps();
    await jobsTest.queryTestDatabase(`DROP TABLE IF EXISTS ${ticks}`);
    await jobsTest.dropJobsSchema(schema);
  });

  // pg-boss keeps schedules to the minute. Both processes look for due schedules every second here
  // (the default is 30 s), so each tick is contended by both, dozens of times, and must run once.
  test('a @Cron of every minute runs once per tick, with two processes checking every second', async () => {
    const env = { DATABASE_URL: postgresUrl(), JOBS_SCHEMA: schema, TICKS_TABLE: ticks, CRON_CHECK_S: '1' };
    const [{ registered } = { registered: new Date(NaN) }] = await jobsTest.queryTestDatabase<{
      registered: Date;
    }>(`SELECT date_trunc('minute', now()) AS registered`);
    const replicas = await Promise.all([startApp(env, 'jobs-app.mjs'), startApp(env, 'jobs-app.mjs')]);
    // A new schedule runs at once for the minute it is registered in. The tick watched is the next
    // minute at least 20 s away, so that this first one cannot run late into it.
    const [{ tick } = { tick: new Date(NaN) }] = await jobsTest.queryTestDatabase<{ tick: Date }>(
      `SELECT date_trunc('minute', now() + interval '20 seconds') + interval '1 minute' AS tick`,
    );
    const since = async (from: Date) => (await ticksRun()).filter(({ ranAt }) => ranAt >= from);
    const [first] = await eventually(
      async () => {
        const runs = await since(tick);
        expect(runs).not.toHaveLength(0);
        return runs;
      },
      { within: 150_000 },
    );
    // Both keep checking that minute: no second run may come for it. pg-boss stamps each check it
    // makes (cron_on); five seconds of checks after the run is five passes contending for the tick.
    await eventually(
      async () => {
        const ranAt = first?.ranAt.toISOString();
        const [version] = await jobsTest.queryTestDatabase<{ checked: boolean }>(
          `SELECT cron_on >= '${ranAt}'::timestamptz + interval '5 seconds' AS checked FROM ${schema}.version`,
        );
        expect(version?.checked).toBe(true);
      },
      { within: 30_000 },
    );
    const watched = await since(tick);
    expect(watched).toHaveLength(1);
    expect(replicas.map(({ child }) => child.pid)).toContain(watched[0]?.pid);
    // Before it, at most one run for each minute from the one the schedule was registered in (which
    // runs at once) to the watched one: the watched tick may be two minutes ahead.
    const minutesBefore = (tick.getTime() - registered.getTime()) / 60_000;
    expect((await ticksRun()).length).toBeLessThanOrEqual(minutesBefore + 1);
    // The schedule no @Cron declares any more was removed when the replicas started.
    expect(await jobsTest.queryTestDatabase(`SELECT name FROM ${schema}.schedule ORDER BY name`)).toEqual([
      { name: 'Ticker.tick' },
    ]);
  }, 180_000);
});
