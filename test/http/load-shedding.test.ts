import {
  Controller,
  Get,
  HealthModule,
  Module,
  createApplication,
  type Application,
  type ApplicationOptions,
} from 'keel';
import { dataSourceFor, closeAll } from '../factories/health';
import { captureLog, type LogCapture } from '../factories/log';
import { postgresUrl } from '../factories/test-databases';
import { eventually } from '../factories/eventually';

jest.setTimeout(30_000);

@Controller()
class WorkController {
  @Get('ping')
  ping() {
    return { pong: true };
  }

  // Holds the event loop, as a CPU-bound request would.
  @Get('block')
  block() {
    const until = performance.now() + 300;
    while (performance.now() < until);
    return { blocked: 300 };
  }
}

const apps: Application[] = [];
afterEach(async () => {
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
  await closeAll();
});

async function serve(loadShedding: ApplicationOptions['loadShedding'], log: LogCapture): Promise<string> {
  const database = dataSourceFor(postgresUrl());
  @Module({ imports: [HealthModule.forRoot({ dataSource: () => database })], controllers: [WorkController] })
  class AppModule {}
  const app = await createApplication(AppModule, { handleSignals: false, logger: log.logger, loadShedding });
  apps.push(app);
  return (await app.listen(0, '127.0.0.1')).url;
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly retryAfter: string | null;
}

async function ask(url: string): Promise<Answer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    retryAfter: response.headers.get('retry-after'),
  };
}

test('past a memory limit every route but health answers 503 overloaded with Retry-After; readiness names the limit, liveness stays 200', async () => {
  const log = captureLog();
  const url = await serve({ maxRssBytes: 1, retryAfterS: 7 }, log);

  const [ping, missing, liveness, readiness] = await Promise.all([
    ask(`${url}/ping`),
    ask(`${url}/nowhere`),
    ask(`${url}/health`),
    ask(`${url}/health/ready`),
  ]);

  expect(ping).toEqual({ status: 503, body: { error: 'overloaded' }, retryAfter: '7' });
  // The headers of every error answer, though this one skips the responder to stay cheap.
  const shed = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(10_000) });
  expect([
    shed.status,
    shed.headers.get('x-content-type-options'),
    shed.headers.get('cache-control'),
  ]).toEqual([503, 'nosniff', 'no-store']);
  expect(missing).toMatchObject({ status: 503, body: { error: 'overloaded' } });
  expect(liveness).toMatchObject({ status: 200, body: { status: 'ok' } });
  expect(readiness).toMatchObject({
    status: 503,
    body: { status: 'error', db: 'connected', load: expect.stringMatching(/^rss \d+ bytes > 1 bytes$/) },
  });
  expect(
    log.entries().filter((entry) => entry.msg === 'overloaded: shedding requests until the load falls'),
  ).toHaveLength(1);
});

test('an overloaded process turns a request away before reading its body', async () => {
  const url = await serve({ maxRssBytes: 1 }, captureLog());
  // Parsed first, this body would be a 400 (malformed JSON): the 503 shows it was never read.
  const response = await fetch(`${url}/ping`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"not json',
    signal: AbortSignal.timeout(10_000),
  });
  expect({ status: response.status, body: await response.json() }).toEqual({
    status: 503,
    body: { error: 'overloaded' },
  });
});

test('bursts that block the event loop shed ordinary requests, and answers are 200 again within seconds once they stop', async () => {
  const log = captureLog();
  const url = await serve({ maxEventLoopDelayMs: 150, retryAfterS: 1 }, log);
  expect((await ask(`${url}/ping`)).status).toBe(200);

  const during: Answer[] = [];
  const livenessDuring: number[] = [];
  let readinessWithLoad: Answer | undefined;
  for (const until = performance.now() + 3000; performance.now() < until;) {
    const [blocked, ping, liveness, readiness] = await Promise.all([
      ask(`${url}/block`),
      ask(`${url}/ping`),
      ask(`${url}/health`),
      ask(`${url}/health/ready`),
    ]);
    during.push(blocked, ping);
    livenessDuring.push(liveness.status);
    if (readiness.body.load !== undefined) readinessWithLoad = readiness;
  }
  await eventually(async () => expect((await ask(`${url}/ping`)).status).toBe(200), {
    within: 5000,
    what: 'a ping answered once the bursts stopped',
  });

  expect(during).toContainEqual({ status: 503, body: { error: 'overloaded' }, retryAfter: '1' });
  expect(new Set(livenessDuring)).toEqual(new Set([200]));
  expect(readinessWithLoad).toMatchObject({
    status: 503,
    body: { status: 'error', load: expect.stringMatching(/^event loop delay \d+ ms > 150 ms$/) },
  });
  expect((await ask(`${url}/health/ready`)).status).toBe(200);
  expect(log.entries().some((entry) => entry.msg === 'load back under the limits')).toBe(true);
});

test('without loadShedding nothing is shed, however busy', async () => {
  const url = await serve(undefined, captureLog());
  const answers = await Promise.all([
    ask(`${url}/block`),
    ask(`${url}/block`),
    ask(`${url}/block`),
    ask(`${url}/ping`),
  ]);

  for (const answer of answers) expect(answer.status).toBe(200);
});

test.each([
  [{ maxRssBytes: -1 }, /loadShedding\.maxRssBytes/],
  [{ maxEventLoopDelayMs: 'a lot' }, /loadShedding\.maxEventLoopDelayMs/],
  [{ retryAfterS: 1.5 }, /loadShedding\.retryAfterS/],
])('loadShedding %j is a boot error naming the limit', async (loadShedding, message) => {
  @Module({})
  class EmptyModule {}
  await expect(
    createApplication(EmptyModule, {
      logger: false,
      loadShedding: loadShedding as ApplicationOptions['loadShedding'],
    }),
  ).rejects.toThrow(message);
});
