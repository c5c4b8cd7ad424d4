import { Cron, Injectable, type Application } from 'keel';
import { setTimeout as sleep } from 'node:timers/promises';
import * as jobsTest from '../factories/jobs-app';

const schema = jobsTest.jobsSchema('cron');
const ticks = `${schema}_ticks`;

// Each replica records its ticks in a table: the rows are what the replicas did together.
@Injectable()
class EveryMinute {
  @Cron('* * * * *')
  async tick() {
    await jobsTest.queryTestDatabase(`INSERT INTO ${ticks} (minute) VALUES (date_trunc('minute', now()))`);
  }
}

jobsTest.describeJobs('schedules shared by replicas', () => {
  const replicas: Application[] = [];

  beforeAll(() =>
    jobsTest.queryTestDatabase(`CREATE TABLE ${ticks} (id serial PRIMARY KEY, minute timestamptz NOT NULL)`),
  );
  afterAll(async () => {
    await Promise.allSettled(replicas.map((app) => app.close()));
    await jobsTest.queryTestDatabase(`DROP TABLE IF EXISTS ${ticks}`);
    await jobsTest.dropJobsSchema(schema);
  });

  // pg-boss keeps schedules to the minute; both replicas look for due ones every second here (the
  // default is 30 s), so each tick is contended by both, many times, and must still run once.
  test('a @Cron of every minute runs once per tick across two replicas', async () => {
    for (let i = 0; i < 2; i++) {
      replicas.push(await jobsTest.bootJobsApp({ schema, providers: [EveryMinute], cronCheckIntervalS: 1 }));
    }
    const count = async () =>
      (await jobsTest.queryTestDatabase<{ n: number }>(`SELECT count(*)::int AS n FROM ${ticks}`))[0]?.n ?? 0;
    await jobsTest.eventually('the first tick', async () => (await count()) >= 1, 90_000);
    // Both replicas keep checking the same minute: no second row may come for it.
    await sleep(8000);
    const perMinute = await jobsTest.queryTestDatabase<{ minute: Date; runs: number }>(
      `SELECT minute, count(*)::int AS runs FROM ${ticks} GROUP BY minute ORDER BY minute`,
    );
    expect(perMinute.length).toBeGreaterThanOrEqual(1);
    expect(perMinute.every(({ runs }) => runs === 1)).toBe(true);
  }, 120_000);
});
