import { Injectable, Job, Jobs, MetricsModule, type Application, type RunningJob } from 'keel';
import { eventually } from '../factories/eventually';
import * as jobsTest from '../factories/jobs-app';
import { checkMetrics, prometheusMissing } from '../factories/prometheus';
import { describeNeeding } from '../factories/requirements';

@Injectable()
class Billing {
  @Job('charge', { retries: 2 })
  charge(_data: unknown, job: RunningJob) {
    if (job.attempt === 1) throw new Error('the card network timed out');
  }

  @Job('refund', { retries: 0 })
  refund() {
    throw new Error('nothing to refund');
  }
}

jobsTest.describeJobs('keel_jobs_total with MetricsModule', () => {
  const schema = jobsTest.jobsSchema('metrics');
  let app: Application;
  let metricsText: string;

  beforeAll(async () => {
    app = await jobsTest.bootJobsApp({ schema, providers: [Billing], imports: [MetricsModule.forRoot()] });
    const { url } = await app.listen(0, '127.0.0.1');
    const jobs = app.get(Jobs);
    await jobs.enqueue('charge', {});
    await jobs.enqueue('charge', {});
    await jobs.enqueue('refund', {});
    await eventually(
      async () => {
        metricsText = await (await fetch(`${url}/metrics`)).text();
        expect(metricsText).toContain('keel_jobs_total{name="charge",outcome="completed"} 2');
        expect(metricsText).toContain('keel_jobs_total{name="refund",outcome="failed"} 1');
      },
      { within: 30_000 },
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await jobsTest.dropJobsSchema(schema);
  });

  test('counts every try by name and outcome: retried, completed, failed', () => {
    const series = metricsText.split('\n').filter((line) => line.startsWith('keel_jobs_total{'));
    expect(series.sort()).toEqual([
      'keel_jobs_total{name="charge",outcome="completed"} 2',
      'keel_jobs_total{name="charge",outcome="retried"} 2',
      'keel_jobs_total{name="refund",outcome="failed"} 1',
    ]);
    expect(metricsText).toContain('# TYPE keel_jobs_total counter');
  });

  describeNeeding(prometheusMissing(), 'promtool', () => {
    test('passes promtool check metrics', () => {
      expect(checkMetrics(metricsText)).toEqual({ status: 0, output: '' });
    });
  });
});
