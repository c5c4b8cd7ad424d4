import {
  DatabaseModule,
  HealthModule,
  Injectable,
  Job,
  JobsModule,
  Module,
  createApplication,
  type Application,
} from 'keel';
import { eventually } from '../factories/eventually';
import { describeJobs, dropJobsSchema, jobsSchema } from '../factories/jobs-app';
import { closedPort, postgresUrl } from '../factories/test-databases';

@Injectable()
class Mailer {
  @Job('send-welcome') sendWelcome() {}
}

async function readiness(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}/health/ready`);
  return { status: res.status, body: await res.json() };
}

async function serve(jobs: { url?: string; schema: string }): Promise<{ app: Application; url: string }> {
  @Module({
    // HealthModule first, as the sample imports it: its routes exist before the queue's check does.
    imports: [
      HealthModule.forRoot(),
      DatabaseModule.forRoot({ type: 'postgres', url: postgresUrl() }),
      JobsModule.forRoot(jobs),
    ],
    providers: [Mailer],
  })
  class AppModule {}
  const app = await createApplication(AppModule, { logger: false, handleSignals: false });
  return { app, url: (await app.listen(0, '127.0.0.1')).url };
}

// A replica whose requests enqueue is not ready before its queue is: readiness names the queue and
// keeps the replica out of the balancer until it has started.
describeJobs('readiness and the job queue', () => {
  const schema = jobsSchema('ready');
  afterAll(() => dropJobsSchema(schema));

  test('readiness answers "jobs":"connected" once the queue has started', async () => {
    const { app, url } = await serve({ schema });
    try {
      const ready = await eventually(
        async () => {
          const answer = await readiness(url);
          return answer.status === 200 && answer;
        },
        { within: 20_000 },
      );
      expect(ready.body).toEqual({ status: 'ready', db: 'connected', jobs: 'connected' });
    } finally {
      await app.close();
    }
  }, 30_000);

  test('a queue that cannot start keeps readiness at 503 with "jobs":"starting", the database connected', async () => {
    const { app, url } = await serve({
      schema,
      url: `postgres://postgres@127.0.0.1:${await closedPort()}/none`,
    });
    try {
      const answer = await eventually(
        async () => {
          const seen = await readiness(url);
          return (seen.body as { db?: string }).db === 'connected' && seen;
        },
        { within: 20_000 },
      );
      expect(answer).toEqual({ status: 503, body: { status: 'error', db: 'connected', jobs: 'starting' } });
    } finally {
      await app.close();
    }
  }, 30_000);
});
