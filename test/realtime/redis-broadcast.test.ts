import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Broadcast, Module, RealtimeModule, type Application } from 'keel';
import { bootApp } from '../factories/app';
import { eventsIn, OrdersController, OrdersGateway, publishOrder } from '../factories/realtime-orders';
import { eventually } from '../factories/eventually';
import { openEventStream } from '../factories/event-stream-client';
import { connect } from './ws-client';

const REDIS_URL = 'redis://127.0.0.1:6379';
// Other tests share this Redis: every key of this file is under its own prefix, deleted at the end.
const KEY_PREFIX = `keel-test:${randomBytes(6).toString('hex')}:realtime:`;

interface Replica {
  readonly app: Application;
  readonly url: string;
  readonly broadcast: Broadcast;
  /** The application's own client. */
  readonly redis: Redis;
  /** The name of its client in `CLIENT LIST`; the subscriber's is this and `:realtime`. */
  readonly name: string;
}

interface ReplicaOptions {
  readonly replayWindowMs?: number;
  /** How long ioredis waits before it reconnects a dropped connection. Default: 50 ms. */
  readonly reconnectAfterMs?: number;
}

const replicas: Replica[] = [];

async function startReplica(options: ReplicaOptions = {}): Promise<Replica> {
  const name = `keel-test-${randomBytes(4).toString('hex')}`;
  const redis = new Redis(REDIS_URL, {
    connectionName: name,
    retryStrategy: () => options.reconnectAfterMs ?? 50,
  });
  @Module({
    imports: [
      RealtimeModule.forRoot({
        via: 'redis',
        redis: () => redis,
        keyPrefix: KEY_PREFIX,
        replayWindowMs: options.replayWindowMs,
      }),
    ],
    controllers: [OrdersController],
    providers: [OrdersGateway],
  })
  class AppModule {}
  const app = await bootApp(AppModule, { logger: false });
  const { url } = await app.listen(0, '127.0.0.1');
  const broadcast = app.get(Broadcast);
  const replica = { app, url, broadcast, redis, name };
  replicas.push(replica);
  await eventually(() => broadcast.isListening, { within: 10_000, what: 'the replica to subscribe' });
  return replica;
}

function isIncreasing(ids: readonly string[]): boolean {
  return ids.every((id, index) => index === 0 || BigInt(id) > BigInt(ids[index - 1] ?? '0'));
}

// The ids of the connections in `CLIENT LIST` named `name`.
async function clientIds(admin: Redis, name: string): Promise<string[]> {
  const list = (await admin.client('LIST')) as string;
  return list
    .split('\n')
    .filter((line) => line.split(' ').includes(`name=${name}`))
    .map((line) => /(?:^| )id=(\d+)/.exec(line)?.[1] ?? '');
}

async function serverTimeMs(admin: Redis): Promise<number> {
  return Number((await serverTimeMicros(admin)) / 1000n);
}

async function serverTimeMicros(admin: Redis): Promise<bigint> {
  const [seconds, micros] = await admin.time();
  return BigInt(seconds) * 1_000_000n + BigInt(micros);
}

describe("Broadcast: channels shared by replicas through Redis (via: 'redis')", () => {
  const admin = new Redis(REDIS_URL);
  let a: Replica;
  let b: Replica;

  beforeAll(async () => {
    a = await startReplica();
    // Slow to reconnect, so that a test can publish while its subscriber is down.
    b = await startReplica({ reconnectAfterMs: 1000 });
  }, 30_000);

  afterAll(async () => {
    for (const replica of replicas) {
      await replica.app.close();
      await replica.redis.quit();
    }
    const keys = await admin.keys(`${KEY_PREFIX}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  test('an event published on replica A reaches a WebSocket client and an SSE client of replica B, and an SSE client of A itself', async () => {
    const socket = await connect(`${b.url.replace('http://', 'ws://')}/ws/orders`);
    expect((await socket.next('joined')).data).toEqual(['orders']);
    const stream = await openEventStream(`${b.url}/orders/live`);
    // A hears of its own event as B does; and once this stream of A has it, no test after can
    // see it come late to a stream of A opened after it was published.
    const own = await openEventStream(`${a.url}/orders/live`);
    const id = await publishOrder(a, 1);
    expect(id).toMatch(/^\d+$/);
    expect(await socket.next('order')).toEqual({ event: 'order', data: { n: 1 }, id });
    const text = await stream.waitFor('the order event', (seen) => eventsIn(seen).length === 1, 10_000);
    expect(eventsIn(text)).toEqual([{ id, n: 1 }]);
    const ownText = await own.waitFor('the order event on A', (seen) => eventsIn(seen).length === 1, 10_000);
    expect(eventsIn(ownText)).toEqual([{ id, n: 1 }]);
    socket.ws.close();
    stream.leave();
    own.leave();
  });

  test('an SSE client that reconnects to the other replica with Last-Event-ID gets every event it missed, once, in order', async () => {
    const first = await openEventStream(`${a.url}/orders/live`);
    await publishOrder(a, 10);
    await publishOrder(b, 11);
    const before = eventsIn(await first.waitFor('two events', (seen) => eventsIn(seen).length === 2, 10_000));
    expect(before.map((event) => event.n)).toEqual([10, 11]);
    first.leave();
    // Missed while disconnected, published on both replicas.
    for (const n of [12, 13, 14, 15]) await publishOrder(n % 2 === 0 ? a : b, n);
    const lastEventId = before.at(-1)?.id ?? '';
    const second = await openEventStream(`${b.url}/orders/live`, { 'last-event-id': lastEventId });
    await publishOrder(a, 16);
    const after = eventsIn(await second.waitFor('five events', (seen) => eventsIn(seen).length >= 5, 10_000));
    second.leave();
    expect(after.map((event) => event.n)).toEqual([12, 13, 14, 15, 16]);
    expect(isIncreasing([lastEventId, ...after.map((event) => event.id)])).toBe(true);
  });

  test('events published while the subscriber connection of replica B is down reach its clients once it is back, in order, once', async () => {
    const socket = await connect(`${b.url.replace('http://', 'ws://')}/ws/orders`);
    await socket.next('joined');
    const stream = await openEventStream(`${b.url}/orders/live`);
    await publishOrder(a, 20);
    expect((await socket.next('order')).data).toEqual({ n: 20 });

    const subscriber = await clientIds(admin, `${b.name}:realtime`);
    expect(subscriber).toHaveLength(1);
    await admin.client('KILL', 'ID', subscriber[0] ?? '');
    await eventually(() => !b.broadcast.isListening, { within: 5000, what: "B's subscriber to drop" });
    await publishOrder(a, 21);
    await publishOrder(a, 22);
    // Published while B heard nothing: only its catch-up can bring them.
    expect(b.broadcast.isListening).toBe(false);
    await eventually(() => b.broadcast.isListening, { within: 10_000, what: "B's subscriber to come back" });
    await publishOrder(a, 23);

    const frames = [await socket.next('order'), await socket.next('order'), await socket.next('order')];
    expect(frames.map((frame) => frame.data)).toEqual([{ n: 21 }, { n: 22 }, { n: 23 }]);
    const text = await stream.waitFor('four events', (seen) => eventsIn(seen).length >= 4, 10_000);
    expect(eventsIn(text).map((event) => event.n)).toEqual([20, 21, 22, 23]);
    expect(isIncreasing(eventsIn(text).map((event) => event.id))).toBe(true);
    // Nothing came twice on the socket either.
    expect(socket.frames.filter((frame) => frame.event === 'order')).toHaveLength(4);
    expect(await clientIds(admin, `${b.name}:realtime`)).toHaveLength(1);
    socket.ws.close();
    stream.leave();
  });

  test('an event older than the replay window is not replayed, and leaves the store with the next event', async () => {
    const shortWindow = await startReplica({ replayWindowMs: 300 });
    const channel = `window-${randomBytes(4).toString('hex')}`;
    const first = await a.broadcast.publish(channel, 'tick', { n: 1 });
    const [stored = ''] = await admin.zrange(`${KEY_PREFIX}channel:${channel}`, 0, -1);
    const { at } = JSON.parse(stored) as { at: number; id: string };
    await eventually(async () => (await serverTimeMs(admin)) > at + 300, {
      within: 5000,
      what: 'the first event to be older than 300 ms',
    });
    const before = String(BigInt(first) - 1n);
    // Replica A's window (2 minutes) still holds it; the short one's does not.
    const fromA = a.broadcast.stream(channel, before);
    expect((await fromA.next()).value).toEqual({ id: first, event: 'tick', data: { n: 1 } });
    await fromA.return?.();
    // Its replay is read (on the same connection) before the next event is published, which prunes.
    const fromShort = shortWindow.broadcast.stream(channel, before);
    const second = await shortWindow.broadcast.publish(channel, 'tick', { n: 2 });
    expect((await fromShort.next()).value).toEqual({ id: second, event: 'tick', data: { n: 2 } });
    await fromShort.return?.();
    const members = await admin.zrange(`${KEY_PREFIX}channel:${channel}`, 0, -1);
    expect(members.map((member) => (JSON.parse(member) as { id: string }).id)).toEqual([second]);
  });

  test('ids keep increasing when Redis loses the counter, so a client resuming after an old id misses nothing', async () => {
    const channel = `restart-${randomBytes(4).toString('hex')}`;
    const before = await a.broadcast.publish(channel, 'tick', { n: 1 });
    // What a Redis restarted without its data has lost.
    await admin.del(`${KEY_PREFIX}id`);
    const publishedSince = await serverTimeMicros(admin);
    const after = await b.broadcast.publish(channel, 'tick', { n: 2 });
    // The server's clock to the microsecond, between the two readings: a clock in whole
    // milliseconds could give the id before again.
    expect(BigInt(after)).toBeGreaterThanOrEqual(publishedSince);
    expect(BigInt(after)).toBeLessThanOrEqual(await serverTimeMicros(admin));
    expect(BigInt(after)).toBeGreaterThan(BigInt(before));
    const resumed = a.broadcast.stream(channel, before);
    expect((await resumed.next()).value).toEqual({ id: after, event: 'tick', data: { n: 2 } });
    await resumed.return?.();
  });

  test("closing the application closes its subscriber connection, and leaves the application's client open", async () => {
    const replica = await startReplica();
    expect(await clientIds(admin, `${replica.name}:realtime`)).toHaveLength(1);
    await replica.app.close();
    expect(replica.broadcast.isListening).toBe(false);
    await eventually(async () => (await clientIds(admin, `${replica.name}:realtime`)).length === 0, {
      within: 5000,
      what: 'the subscriber connection to close',
    });
    expect(await replica.redis.ping()).toBe('PONG');
    expect(await clientIds(admin, replica.name)).toHaveLength(1);
  });
});

describe("RealtimeModule.forRoot({ via: 'redis' }) refuses at boot", () => {
  test.each([
    [
      { via: 'kafka' },
      /E_INVALID_REALTIME_TRANSPORT: RealtimeModule.forRoot: via is "kafka": expected 'postgres' or 'redis'/,
    ],
    [{ redis: () => ({}) }, /E_INVALID_REALTIME_TRANSPORT: .*redis given, and via is 'postgres'/],
    [{ via: 'redis' }, /E_BROADCAST_NEEDS_REDIS: .*its redis option is undefined, not a function/],
    [{ via: 'redis', redis: 'redis://127.0.0.1' }, /E_BROADCAST_NEEDS_REDIS: .*its redis option is string/],
    [
      { via: 'redis', redis: () => ({}), keyPrefix: '' },
      /E_INVALID_REALTIME_OPTION: .*keyPrefix is ""; it must be a non-empty string/,
    ],
    [
      { replayWindowMs: 0 },
      /E_INVALID_REALTIME_OPTION: .*replayWindowMs is 0; it must be a whole number of milliseconds above 0/,
    ],
  ])('RealtimeModule.forRoot(%p)', (options, message) => {
    expect(() => RealtimeModule.forRoot(options as never)).toThrow(message);
  });

  test.each([
    ['undefined', () => undefined, /E_BROADCAST_NEEDS_REDIS: .*redis\(\) gave undefined, not a Redis client/],
    [
      'a node-redis client',
      // What a node-redis 4 client has of what keel uses: no evalsha (it is evalSha).
      () => ({ duplicate() {}, evalSha() {}, eval() {}, get() {}, subscribe() {}, on() {}, disconnect() {} }),
      /E_BROADCAST_NEEDS_REDIS: .*a client without evalsha: keel speaks to Redis through ioredis/,
    ],
  ])('a redis function that gives %s', async (_given, redis, message) => {
    @Module({ imports: [RealtimeModule.forRoot({ via: 'redis', redis: redis as () => object })] })
    class AppModule {}
    await expect(bootApp(AppModule, { logger: false })).rejects.toThrow(message);
  });
});
