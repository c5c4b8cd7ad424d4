import path from 'node:path';
import { Injectable, Job, Jobs } from 'keel';
import { runNode } from '../factories/cli';
import { postgresUrl } from '../factories/test-databases';
import { eventually } from '../factories/eventually';
import * as jobsTest from '../factories/jobs-app';

const JOBS_APP = path.join(__dirname, '..', 'fixtures', 'apps', 'jobs-app.mjs');

@Injectable()
class Reports {
  @Job('always-fails', { retries: 1 })
  alwaysFails(data: { report: number }) {
    throw new Error(`report ${data.report} cannot be built`);
  }

  @Job('build-report')
  build() {}
}

jobsTest.describeJobs('node dist/main.js jobs:status', () => {
  const schema = jobsTest.jobsSchema('status');
  afterAll(() => jobsTest.dropJobsSchema(schema));

  test('lists each queue with its counts and the job that failed every try, with its error; exit 0', async () => {
    const app = await jobsTest.bootJobsApp({ schema, providers: [Reports] });
    const jobs = app.get(Jobs);
    const failing = await jobs.enqueue('always-fails', { report: 7 });
    await jobs.enqueue('build-report', {});
    await jobs.enqueue('build-report', {}, { delayS: 600 });
    const failedJobs = () =>
      jobsTest.queryTestDatabase(
        `SELECT id FROM ${schema}.job WHERE name = 'always-fails' AND state = 'failed'`,
      );
    await eventually(async () => expect(await failedJobs()).toHaveLength(1), { within: 30_000 });
    await eventually(
      async () =>
        expect(
          await jobsTest.queryTestDatabase(
            `SELECT 1 FROM ${schema}.job WHERE name = 'build-report' AND state = 'completed'`,
          ),
        ).toHaveLength(1),
      { within: 20_000 },
    );
    await app.close();

    const run = await runNode(JOBS_APP, ['jobs:status'], {
      env: { DATABASE_URL: postgresUrl(), JOBS_SCHEMA: schema },
      timeoutMs: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^queue\s+waiting\s+delayed\s+active\s+completed\s+failed$/);
    expect(lines).toContainEqual(expect.stringMatching(/^always-fails\s+0\s+0\s+0\s+0\s+1$/));
    expect(lines).toContainEqual(expect.stringMatching(/^build-report\s+0\s+1\s+0\s+1\s+0$/));
    expect(run.stdout).toContain('failed jobs (1, newest first):');
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^  always-fails  ${failing}  2 tries  \\S+Z  report 7 cannot be built$`),
      ),
    );
  }, 60_000);

  test('a database that refuses the connection is reported in its words; exit 1', async () => {
    const run = await runNode(JOBS_APP, ['jobs:status'], {
      env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', JOBS_SCHEMA: schema },
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe('E_COMMAND_FAILED: jobs:status failed: connect ECONNREFUSED 127.0.0.1:1');
  }, 40_000);

  test('on an application without JobsModule, says so and exits 1', async () => {
    const run = await runNode(
      path.join(__dirname, '..', 'fixtures', 'apps', 'command-app.mjs'),
      ['jobs:status'],
      { timeoutMs: 30_000 },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_NO_JOBS_MODULE');
    expect(run.stderr).toContain('JobsModule.forRoot()');
  }, 40_000);
});
