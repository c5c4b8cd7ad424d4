import { setTimeout as sleep } from 'node:timers/promises';
import { Controller, Get, Module, Post, RateLimit, RateLimitModule, type Context } from 'keel';
import { useServedApp } from '../factories/app';

jest.setTimeout(20_000);

@RateLimit({ limit: 2, windowS: 30 })
@Controller('shared')
class SharedController {
  @Get('a') a() {
    return { route: 'a' };
  }

  @Get('b') b() {
    return { route: 'b' };
  }

  @RateLimit({ limit: 4, windowS: 30 })
  @Get('own')
  own() {
    return { route: 'own' };
  }
}

@Controller('api')
class ApiController {
  @RateLimit({ limit: 3, windowS: 2 })
  @Post('orders')
  store() {
    return { stored: true };
  }

  @Get('orders') index() {
    return [];
  }

  @RateLimit({ limit: 1, windowS: 30, key: (ctx: Context) => ctx.req.get('x-api-key') ?? 'anonymous' })
  @Get('keyed')
  keyed() {
    return { keyed: true };
  }

  @RateLimit('configured')
  @Get('configured')
  configured() {
    return { configured: true };
  }

  @RateLimit('configured')
  @Get('configured-too')
  configuredToo() {
    return { configured: true };
  }

  @RateLimit({ limit: 1, windowS: 30 })
  @Get('by-address')
  byAddress() {
    return { byAddress: true };
  }
}

@Module({
  imports: [RateLimitModule.forRoot({ limits: { configured: { limit: 2, windowS: 45 } } })],
  controllers: [SharedController, ApiController],
})
class AppModule {}

const served = useServedApp(AppModule, {}, (app) => {
  // One hop: the address the proxy saw the client at is the last of X-Forwarded-For.
  app.express.set('trust proxy', 1);
});

function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${served().url}${path}`, init);
}

test('a limited route answers within its budget with RateLimit-Policy and RateLimit, then 429 with Retry-After', async () => {
  const answers: Response[] = [];
  for (let i = 0; i < 4; i++) answers.push(await call('/api/orders', { method: 'POST' }));

  expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 429]);
  for (const res of answers) expect(res.headers.get('ratelimit-policy')).toBe('3;w=2');
  const remaining = answers.map((res) => /remaining=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
  expect(remaining).toEqual(['2', '1', '0', '0']);
  expect(answers[0]?.headers.get('ratelimit')).toMatch(/^limit=3, remaining=2, reset=[12]$/);

  const refused = answers[3] as Response;
  expect(await refused.json()).toEqual({ error: 'too many requests' });
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(2);
  expect(await answers[0]?.json()).toEqual({ stored: true });
});

test('after Retry-After has passed, the route answers again with a fresh budget', async () => {
  let refused = await call('/api/orders', { method: 'POST' });
  for (let i = 0; refused.status !== 429 && i < 5; i++)
    refused = await call('/api/orders', { method: 'POST' });
  expect(refused.status).toBe(429);

  // What a client that honours Retry-After does: the wait is the behaviour, not a guess at an event.
  await sleep(Number(refused.headers.get('retry-after')) * 1000 + 100);
  const again = await call('/api/orders', { method: 'POST' });
  expect(again.status).toBe(201);
  expect(again.headers.get('ratelimit')).toMatch(/^limit=3, remaining=2, reset=\d+$/);
});

test('a route without @RateLimit carries no rate limit header and is never refused', async () => {
  for (let i = 0; i < 6; i++) {
    const res = await call('/api/orders');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBeNull();
    expect(res.headers.get('ratelimit-policy')).toBeNull();
  }
});

test("a class's limit is one budget for its routes; a method's own limit wins and is separate", async () => {
  const address = { 'X-Forwarded-For': '203.0.113.50' };
  const statuses = [];
  for (const path of ['a', 'b', 'a', 'own', 'own', 'own']) {
    statuses.push((await call(`/shared/${path}`, { headers: address })).status);
  }
  expect(statuses).toEqual([200, 200, 429, 200, 200, 200]);
  expect((await call('/shared/own', { headers: address })).headers.get('ratelimit-policy')).toBe('4;w=30');
});

test('another client address, as trust proxy reads X-Forwarded-For, has a budget of its own', async () => {
  const from = (ip: string) => call('/api/by-address', { headers: { 'X-Forwarded-For': ip } });
  expect((await from('198.51.100.7')).status).toBe(200);
  expect((await from('198.51.100.7')).status).toBe(429);
  expect((await from('198.51.100.8')).status).toBe(200);
  // The proxy is trusted for one hop only: what the client wrote before it is not its address.
  expect((await from('198.51.100.9, 198.51.100.7')).status).toBe(429);
});

test('a key function gives each of its keys a budget of its own', async () => {
  const withKey = (key: string) => call('/api/keyed', { headers: { 'X-Api-Key': key } });
  expect((await withKey('alpha')).status).toBe(200);
  expect((await withKey('alpha')).status).toBe(429);
  expect((await withKey('beta')).status).toBe(200);
});

test('@RateLimit(name) spends the limit RateLimitModule.forRoot gives that name, one budget for every route naming it', async () => {
  const answers = [];
  for (const path of ['configured', 'configured-too', 'configured', 'configured-too']) {
    answers.push(await call(`/api/${path}`));
  }
  expect(answers.map((res) => res.status)).toEqual([200, 200, 429, 429]);
  expect(answers[0]?.headers.get('ratelimit-policy')).toBe('2;w=45');
});
