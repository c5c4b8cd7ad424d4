import {
  Controller,
  DatabaseModule,
  Injectable,
  Job,
  Jobs,
  JobsModule,
  Module,
  Post,
  createApplication,
  type Application,
} from 'keel';
import { closedPort } from '../factories/test-databases';

@Injectable()
class Mailer {
  @Job('send-welcome') sendWelcome() {}
}

@Controller('welcome')
class WelcomeController {
  constructor(private readonly jobs: Jobs) {}

  @Post()
  async send() {
    return { id: await this.jobs.enqueue('send-welcome', { to: 'ada@example.com' }) };
  }
}

// A queue whose database never answered since boot: a request that enqueues must be told to come
// back (503 with Retry-After), not that the server is broken (500), and must not hang.
describe('enqueue while the job queue cannot connect', () => {
  let app: Application;
  let baseUrl: string;

  beforeAll(async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/none`;
    @Module({
      imports: [DatabaseModule.forRoot({ type: 'postgres', url }), JobsModule.forRoot()],
      controllers: [WelcomeController],
      providers: [Mailer],
    })
    class AppModule {}
    app = await createApplication(AppModule, { logger: false, handleSignals: false });
    baseUrl = (await app.listen(0, '127.0.0.1')).url;
  }, 30_000);

  afterAll(() => app.close(), 30_000);

  test('answers 503 {"error":"job queue unavailable"} with Retry-After within the start wait', async () => {
    const startedAt = performance.now();
    const res = await fetch(`${baseUrl}/welcome`, { method: 'POST' });
    expect({
      status: res.status,
      body: await res.json(),
      retryAfter: res.headers.get('retry-after'),
    }).toEqual({
      status: 503,
      body: { error: 'job queue unavailable' },
      retryAfter: '2',
    });
    // enqueue waits up to 5 s for the queue to connect; generous for a loaded machine.
    expect(performance.now() - startedAt).toBeLessThan(20_000);
  }, 30_000);
});
