import net from 'node:net';
import Redis, { type RedisOptions } from 'ioredis';
import {
  Controller,
  DatabaseModule,
  MetricsModule,
  Module,
  Post,
  RateLimit,
  RateLimitModule,
  type Application,
  type RateLimitModuleOptions,
} from 'keel';
import { bootApp } from '../factories/app';
import { captureLog, type LogCapture } from '../factories/log';
import { scrape, valueOf } from '../factories/metrics';
import { closedPort } from '../factories/test-databases';

jest.setTimeout(20_000);

const OPEN_MESSAGE =
  'rate limit store failed: limited routes let requests through unlimited until it answers';
const CLOSED_MESSAGE = 'rate limit store failed: limited routes answer 503 until it answers';

let handled = 0;

@Controller('votes')
class VoteController {
  @RateLimit({ limit: 1, windowS: 60 })
  @Post()
  store() {
    handled += 1;
    return { counted: true };
  }
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(imports: unknown[], log: LogCapture): Promise<string> {
  @Module({ imports: imports as never[], controllers: [VoteController] })
  class AppModule {}
  const app: Application = await bootApp(AppModule, { logger: log.logger });
  cleanups.push(() => app.close());
  return (await app.listen(0, '127.0.0.1')).url;
}

function redisAt(port: number, options: RedisOptions = {}): Redis {
  const client = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1, ...options });
  client.on('error', () => undefined);
  cleanups.push(() => client.disconnect());
  return client;
}

function redisStore(client: Redis, options: RateLimitModuleOptions = {}) {
  return RateLimitModule.forRoot({ store: { redis: () => client }, ...options });
}

// A server that takes connections and never says a word: a Redis that hangs.
async function muteServer(): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as net.AddressInfo).port;
}

async function vote(url: string) {
  const startedAt = performance.now();
  const res = await fetch(`${url}/votes`, { method: 'POST' });
  return {
    status: res.status,
    ms: performance.now() - startedAt,
    retryAfter: res.headers.get('retry-after'),
    policy: res.headers.get('ratelimit-policy'),
    ratelimit: res.headers.get('ratelimit'),
    body: (await res.json()) as unknown,
  };
}

function failureLines(log: LogCapture, message: string) {
  return log.entries().filter((entry) => entry.msg === message);
}

test('a Redis that is down lets every request through, and the log says so once', async () => {
  const log = captureLog();
  const url = await serve([redisStore(redisAt(await closedPort(), { retryStrategy: () => null }))], log);
  const before = handled;

  const answers = [];
  for (let i = 0; i < 5; i++) answers.push(await vote(url));

  expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
  expect(handled - before).toBe(5);
  // The policy is known; what is left of the budget is not.
  expect(answers.every((answer) => answer.policy === '1;w=60' && answer.ratelimit === null)).toBe(true);
  const lines = failureLines(log, OPEN_MESSAGE);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ store: 'redis', reason: 'Redis connection is not ready' });
});

test('every store failure is counted in keel_rate_limit_store_failures_total, logged or not', async () => {
  const log = captureLog();
  const store = redisStore(redisAt(await closedPort(), { retryStrategy: () => null }));
  const url = await serve([store, MetricsModule.forRoot()], log);
  const counted = async () =>
    valueOf(await scrape(`${url}/metrics`), 'keel_rate_limit_store_failures_total', { store: 'redis' });
  expect(await counted()).toBeUndefined();

  for (let i = 0; i < 4; i++) expect((await vote(url)).status).toBe(201);

  expect(await counted()).toBe(4);
  expect(failureLines(log, OPEN_MESSAGE)).toHaveLength(1);
});

test('a Redis that never answers holds no request past timeoutMs: each goes through', async () => {
  const log = captureLog();
  // Without the ready check (and its client info) the client is ready as soon as TCP connects:
  // its commands then wait for an answer that never comes.
  const client = redisAt(await muteServer(), {
    enableReadyCheck: false,
    disableClientInfo: true,
    maxRetriesPerRequest: null,
  });
  await new Promise((resolve) => client.once('ready', resolve));
  const url = await serve([redisStore(client, { timeoutMs: 300 })], log);

  const answers = await Promise.all([vote(url), vote(url), vote(url)]);

  for (const answer of answers) {
    expect(answer.status).toBe(201);
    expect(answer.ms).toBeGreaterThanOrEqual(250);
    // Generous for a loaded machine; a hang would stay until the test's own timeout.
    expect(answer.ms).toBeLessThan(5000);
  }
  const lines = failureLines(log, OPEN_MESSAGE);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ reason: 'the store did not answer within 300 ms' });
});

test('failClosed: a Redis that is down answers 503 rate limit unavailable with Retry-After, and the handler never runs', async () => {
  const log = captureLog();
  const url = await serve(
    [redisStore(redisAt(await closedPort(), { retryStrategy: () => null }), { failClosed: true })],
    log,
  );
  const before = handled;

  const answers = [await vote(url), await vote(url)];

  for (const answer of answers) {
    expect(answer).toMatchObject({ status: 503, retryAfter: '1', body: { error: 'rate limit unavailable' } });
  }
  expect(handled).toBe(before);
  expect(failureLines(log, CLOSED_MESSAGE)).toHaveLength(1);
  // Refusals are not logged one by one as failed requests.
  expect(log.entries().filter((entry) => entry.msg === 'request failed')).toEqual([]);
});

test("store 'postgres' while the database cannot be reached: requests go through, logged once", async () => {
  const log = captureLog();
  const database = DatabaseModule.forRoot(
    { type: 'postgres', url: `postgres://postgres@127.0.0.1:${await closedPort()}/none` },
    { initialDelayMs: 60_000 },
  );
  const url = await serve([database, RateLimitModule.forRoot({ store: 'postgres' })], log);

  const answers = [await vote(url), await vote(url), await vote(url)];

  expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
  expect(failureLines(log, OPEN_MESSAGE)).toEqual([
    expect.objectContaining({ store: 'postgres', reason: 'the database is not connected yet' }),
  ]);
});
