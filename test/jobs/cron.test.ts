import { killRunningApps, startApp } from '../factories/child-app';
import * as jobsTest from '../factories/jobs-app';
import { postgresUrl } from '../factories/test-databases';
import { loadPgBoss } from '../../src/jobs/pg-boss';

const schema = jobsTest.jobsSchema('cron');
const ticks = `${schema}_ticks`;

interface MinuteRuns {
  readonly minute: Date;
  readonly runs: number;
}

const perMinute = () =>
  jobsTest.queryTestDatabase<MinuteRuns>(
    `SELECT minute, count(*)::int AS runs FROM ${ticks} GROUP BY minute ORDER BY minute`,
  );

jobsTest.describeJobs('schedules shared by replicas', () => {
  beforeAll(async () => {
    await jobsTest.queryTestDatabase(
      `CREATE TABLE ${ticks} (id serial PRIMARY KEY, minute timestamptz NOT NULL, pid int NOT NULL)`,
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
  test('a @Cron of every minute, watched over two ticks with two processes, runs once per tick', async () => {
    const env = { DATABASE_URL: postgresUrl(), JOBS_SCHEMA: schema, TICKS_TABLE: ticks, CRON_CHECK_S: '1' };
    await Promise.all([startApp(env, 'jobs-app.mjs'), startApp(env, 'jobs-app.mjs')]);
    await jobsTest.eventually('two ticks', async () => (await perMinute()).length >= 2, 150_000);
    // Both keep checking the minute of the last tick: no second row may come for it.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const minutes = await perMinute();
    expect(minutes.map(({ runs }) => runs)).toEqual(minutes.map(() => 1));
    // One row per minute, and no minute skipped between the first and the last.
    const times = minutes.map(({ minute }) => minute.getTime());
    expect(times.slice(1).map((time, index) => time - (times[index] ?? 0))).toEqual(
      times.slice(1).map(() => 60_000),
    );
    // The schedule no @Cron declares any more was removed when the replicas started.
    expect(await jobsTest.queryTestDatabase(`SELECT name FROM ${schema}.schedule ORDER BY name`)).toEqual([
      { name: 'Ticker.tick' },
    ]);
  }, 180_000);
});
