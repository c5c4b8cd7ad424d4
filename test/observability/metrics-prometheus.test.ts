import { HealthModule, MetricsModule, Module, type Application } from 'keel';
import { MetricsListener } from '../../src/observability/metrics-listener';
import { bootApp } from '../factories/app';
import { HOST } from '../factories/gates';
import { parseSamples } from '../factories/metrics';
import {
  checkMetrics,
  prometheusMissing,
  startPrometheus,
  type PrometheusServer,
} from '../factories/prometheus';
import { describeNeeding } from '../factories/requirements';

jest.setTimeout(60_000);

@Module({
  imports: [HealthModule.forRoot({ checks: { cache: () => undefined } }), MetricsModule.forRoot({ port: 0 })],
})
class AppModule {}

describeNeeding(prometheusMissing(), 'Prometheus reads what keel serves', () => {
  let app: Application;
  let url: string;
  let metricsUrl: string;
  let prometheus: PrometheusServer | undefined;

  beforeAll(async () => {
    app = await bootApp(AppModule, { handleSignals: false });
    url = (await app.listen(0, HOST)).url;
    metricsUrl = app.get(MetricsListener).url ?? '';
  });

  afterAll(async () => {
    await prometheus?.stop();
    await app.close();
  });

  test('promtool check metrics passes on the scraped text', async () => {
    for (const path of ['/health', '/health/ready', '/nowhere']) await fetch(`${url}${path}`);
    const text = await (await fetch(metricsUrl)).text();
    // promtool passes empty input too: the text must hold keel's series for the check to mean anything.
    const names = new Set(parseSamples(text).map((sample) => sample.name));
    for (const name of ['http_requests_total', 'http_request_duration_seconds_bucket', 'keel_readiness']) {
      expect(names).toContain(name);
    }
    expect(checkMetrics(text)).toEqual({ status: 0, output: '' });
  });

  test('promtool rejects a text that breaks the format, so its pass above means something', () => {
    expect(checkMetrics('# TYPE broken_total counter\nbroken_total{a="1"} not-a-number\n').status).not.toBe(
      0,
    );
  });

  test('a real Prometheus server scrapes the application: the target is up and keel’s series are stored', async () => {
    prometheus = await startPrometheus('keel-metrics-test', metricsUrl);
    const up = await prometheus.queryUntilFound('up{job="keel-metrics-test"} == 1');
    expect(up[0]?.metric).toMatchObject({ job: 'keel-metrics-test' });

    await fetch(`${url}/health`);
    const requests = await prometheus.queryUntilFound(
      'http_requests_total{job="keel-metrics-test",route="/health",method="GET",status="200"} >= 1',
    );
    expect(Number(requests[0]?.value[1])).toBeGreaterThanOrEqual(1);
    const readiness = await prometheus.queryUntilFound(
      'keel_readiness{job="keel-metrics-test",check="cache"}',
    );
    expect(readiness[0]?.value[1]).toBe('1');
  });
});
