import http from 'node:http';
import Redis from 'ioredis';
import { HealthModule, Injectable, Module, httpCheck, redisCheck, type HealthCheck } from 'keel';
import { bootApp } from '../factories/app';
import { eventually } from '../factories/eventually';
import { closeAll, dataSourceFor, serve, startHealthApp, type HealthApp } from '../factories/health';
import { captureLog } from '../factories/log';
import { PostgresProxy } from '../factories/postgres-proxy';
import { postgresUrl } from '../factories/test-databases';

jest.setTimeout(20_000);

const REDIS_URL = 'redis://127.0.0.1:6379';

/** A real HTTP service the checks call: it answers `status` and counts the requests it gets. */
interface Upstream {
  readonly url: string;
  status: number;
  requests: number;
  /** Holds every answer until {@link Upstream.release}. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

async function startUpstream(status = 200): Promise<Upstream> {
  let held: (() => void)[] | undefined;
  const server = http.createServer((_req, res) => {
    upstream.requests += 1;
    const answer = () => void res.writeHead(upstream.status).end();
    if (held) held.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const upstream: Upstream = {
    url: `http://127.0.0.1:${port}/health/ready`,
    status,
    requests: 0,
    hold: () => {
      held = [];
    },
    release: () => {
      for (const answer of held?.splice(0) ?? []) answer();
      held = undefined;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return upstream;
}

const clients: Redis[] = [];
const cleanups: (() => Promise<void>)[] = [];
function redisClient(url = REDIS_URL): Redis {
  const client = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}

afterEach(async () => {
  await closeAll();
  for (const client of clients.splice(0)) client.disconnect();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function healthWith(checks: Record<string, HealthCheck>, exposeReason = true): Promise<HealthApp> {
  const database = dataSourceFor(postgresUrl());
  return startHealthApp(() => database, { checks, exposeReason, timeoutMs: 300 });
}

async function upstream(status = 200): Promise<Upstream> {
  const started = await startUpstream(status);
  cleanups.push(() => started.close());
  return started;
}

describe('readiness over named checks', () => {
  test('all healthy: 200, with every check "connected" beside the database', async () => {
    const billing = await upstream(200);
    const health = await healthWith({
      redis: redisCheck(() => redisClient()),
      billing: httpCheck(billing.url),
    });

    expect(await health.probe()).toMatchObject({
      status: 200,
      json: { status: 'ready', db: 'connected', redis: 'connected', billing: 'connected' },
    });
  });

  test('an optional check failing: still 200, showing its reason', async () => {
    const search = await upstream(500);
    const health = await healthWith({
      redis: redisCheck(() => redisClient()),
      search: { ...httpCheck(search.url), optional: true },
    });

    expect(await health.probe()).toMatchObject({
      status: 200,
      json: {
        status: 'ready',
        db: 'connected',
        redis: 'connected',
        search: `GET ${search.url} answered 500`,
      },
    });
  });

  test('a required check failing: 503, and the database still says it is connected', async () => {
    const billing = await upstream(503);
    const health = await healthWith({ billing: httpCheck(billing.url) });

    expect(await health.probe()).toMatchObject({
      status: 503,
      json: { status: 'error', db: 'connected', billing: `GET ${billing.url} answered 503` },
    });
  });

  test('an upstream that refuses: 503 naming the refusal, and with exposeReason false only "unavailable"', async () => {
    const closed = await upstream(200);
    await closed.close();
    cleanups.pop();
    const exposed = await healthWith({ billing: httpCheck(closed.url) });
    const hidden = await healthWith({ billing: httpCheck(closed.url) }, false);

    expect(await exposed.probe()).toMatchObject({
      status: 503,
      json: { billing: expect.stringContaining('ECONNREFUSED') },
    });
    expect(await hidden.probe()).toMatchObject({
      status: 503,
      json: { status: 'error', billing: 'unavailable' },
    });
  });

  test('a Redis that accepts connections and never answers: 503 within the timeout, and 200 again once it answers', async () => {
    const proxy = await PostgresProxy.start(REDIS_URL, 'forward', 'opaque');
    cleanups.push(() => proxy.close());
    const client = redisClient(proxy.url.replace('postgres:', 'redis:'));
    const health = await healthWith({ redis: redisCheck(() => client) });
    expect((await health.probe()).status).toBe(200);

    await proxy.setMode('blackhole');
    const hung = await health.probe();
    await proxy.setMode('forward');
    const back = await health.probe();

    expect(hung).toMatchObject({ status: 503, json: { redis: 'timeout after 300 ms' } });
    expect(hung.elapsedMs).toBeLessThan(1000);
    expect(back).toMatchObject({ status: 200, json: { redis: 'connected' } });
  });

  test('100 concurrent probes put one check on each dependency', async () => {
    // Both dependencies hold their answers until every probe has reached the application.
    const billing = await upstream(200);
    billing.hold();
    const proxy = await PostgresProxy.start(REDIS_URL, 'forward', 'opaque');
    cleanups.push(() => proxy.close());
    const client = redisClient(proxy.url.replace('postgres:', 'redis:'));
    expect(await client.ping()).toBe('PONG');
    await proxy.setMode('blackhole');
    let redisChecks = 0;
    const database = dataSourceFor(postgresUrl());
    const health = await startHealthApp(() => database, {
      timeoutMs: 5000,
      checks: {
        redis: redisCheck(() => {
          redisChecks += 1;
          return client;
        }),
        billing: httpCheck(billing.url),
      },
    });
    let arrived = 0;
    health.app.use((_req: unknown, _res: unknown, next: () => void) => {
      arrived += 1;
      next();
    });

    const probes = Promise.all(Array.from({ length: 100 }, () => health.probe()));
    await eventually(() => expect(arrived).toBe(100), {
      within: 5000,
      every: 1,
      what: 'every probe to arrive',
    });
    await proxy.setMode('forward');
    billing.release();
    const answers = await probes;

    for (const answer of answers)
      expect(answer).toMatchObject({ status: 200, json: { redis: 'connected', billing: 'connected' } });
    expect(billing.requests).toBe(1);
    expect(redisChecks).toBe(1);
  });

  test('an @Injectable() class check is built through DI with its dependencies', async () => {
    @Injectable()
    class RedisClientHolder {
      readonly client = redisClient();
    }
    @Injectable()
    class CacheHealth {
      constructor(private readonly holder: RedisClientHolder) {}
      async check(): Promise<void> {
        if ((await this.holder.client.ping()) !== 'PONG') throw new Error('no PONG');
      }
    }
    const database = dataSourceFor(postgresUrl());
    @Module({
      imports: [HealthModule.forRoot({ dataSource: () => database, checks: { cache: CacheHealth } })],
      providers: [RedisClientHolder],
    })
    class AppModule {}
    const health = await serve(
      await bootApp(AppModule, { handleSignals: false, logger: captureLog().logger }),
    );

    expect(await health.probe()).toMatchObject({ status: 200, json: { cache: 'connected' } });
  });

  test.each([['status'], ['db'], ['']])('a check named %j is a boot error', (name) => {
    expect(() => HealthModule.forRoot({ checks: { [name]: () => undefined } })).toThrow(/E_INVALID_OPTION/);
  });
});
