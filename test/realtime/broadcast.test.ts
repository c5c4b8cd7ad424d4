import { DataSource } from 'typeorm';
import {
  Broadcast,
  DatabaseModule,
  MetricsModule,
  Module,
  RealtimeModule,
  RealtimeTables1764633600000,
  type Application,
} from 'keel';
import { bootApp } from '../factories/app';
import { eventsIn, OrdersController, OrdersGateway, publishOrder } from '../factories/realtime-orders';
import { eventually } from '../factories/eventually';
import { openEventStream } from '../factories/event-stream-client';
import { captureLog } from '../factories/log';
import { scrape, scrapeUntil, valueOf, type Sample } from '../factories/metrics';
import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { postgresUrl } from '../factories/test-databases';
import { connect } from './ws-client';

interface Replica {
  readonly app: Application;
  readonly url: string;
}

async function startReplica(databaseUrl: string): Promise<Replica> {
  @Module({
    imports: [
      DatabaseModule.forRoot({
        type: 'postgres',
        url: databaseUrl,
        migrations: [RealtimeTables1764633600000],
        migrationsRun: true,
      }),
      RealtimeModule.forRoot(),
      MetricsModule.forRoot(),
    ],
    controllers: [OrdersController],
    providers: [OrdersGateway],
  })
  class AppModule {}
  const log = captureLog('debug');
  const app = await bootApp(AppModule, { logger: log.logger });
  const { url } = await app.listen(0, '127.0.0.1');
  const dataSource = app.get(DataSource);
  const broadcast = app.get(Broadcast);
  await eventually(
    () =>
      dataSource.isInitialized &&
      broadcast.isListening &&
      log.entries().some((entry) => entry.msg === 'migrations up to date'),
    { within: 20_000, what: 'the replica to connect, migrate and listen' },
  );
  return { app, url };
}

// Resolves once the replica's metrics count `count` open event streams.
function openStreams(replica: Replica, count: number): Promise<readonly Sample[]> {
  return scrapeUntil(
    `${replica.url}/metrics`,
    `${count} open event streams`,
    (samples) => {
      return valueOf(samples, 'keel_realtime_connections', { kind: 'sse' }) === count;
    },
    3_000,
  );
}

const eventsSent = async (replica: Replica): Promise<number> =>
  valueOf(await scrape(`${replica.url}/metrics`), 'keel_realtime_messages_total', { direction: 'out' }) ?? 0;

describe('Broadcast: channels shared by replicas through PostgreSQL', () => {
  let database: ScratchDatabase;
  let a: Replica;
  let b: Replica;

  beforeAll(async () => {
    database = await createScratchDatabase(postgresUrl());
    a = await startReplica(database.url);
    b = await startReplica(database.url);
  }, 60_000);

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await database?.drop();
  });

  test('an event published on replica A reaches a WebSocket client and an SSE client of replica B, and an SSE client of A itself', async () => {
    const socket = await connect(`${b.url.replace('http://', 'ws://')}/ws/orders`);
    expect((await socket.next('joined')).data).toEqual(['orders']);
    const stream = await openEventStream(`${b.url}/orders/live`);
    // A hears of its own event as B does; and once this stream of A has it, no test after can
    // see it come late to a stream of A opened after it was published.
    const own = await openEventStream(`${a.url}/orders/live`);
    const id = await publishOrder(a, 1);
    const frame = await socket.next('order');
    expect(frame).toEqual({ event: 'order', data: { n: 1 }, id });
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
    const missed = [12, 13, 14, 15];
    for (const n of missed) await publishOrder(n % 2 === 0 ? a : b, n);
    const lastEventId = before.at(-1)?.id ?? '';
    const second = await openEventStream(`${b.url}/orders/live`, { 'last-event-id': lastEventId });
    await publishOrder(a, 16);
    const after = eventsIn(await second.waitFor('five events', (seen) => eventsIn(seen).length >= 5, 10_000));
    expect(after.map((event) => event.n)).toEqual([12, 13, 14, 15, 16]);
    const ids = after.map((event) => BigInt(event.id));
    expect(ids.every((id, index) => index === 0 || id > (ids[index - 1] ?? 0n))).toBe(true);
    expect(ids[0]).toBeGreaterThan(BigInt(lastEventId));
    second.leave();
  });

  test('a stream resuming across ids of different lengths (9, then 10) replays them in numeric order, losing none', async () => {
    const ids: string[] = [];
    // Enough events that the replay holds ids of one and two digits, whatever came before.
    for (let n = 0; ids.length < 12 || (ids[0]?.length ?? 0) === (ids.at(-1)?.length ?? 0); n++)
      ids.push(await publishOrder(n % 2 === 0 ? a : b, 100 + n));
    const resumed = await openEventStream(`${b.url}/orders/live`, { 'last-event-id': '0' });
    const last = ids.at(-1) ?? '';
    const text = await resumed.waitFor('the last event', (seen) => seen.includes(`id: ${last}\n`), 10_000);
    const replayed = eventsIn(text).map((event) => event.id);
    expect(replayed.filter((id) => ids.includes(id))).toEqual(ids);
    expect(replayed).toEqual([...replayed].sort((x, y) => Number(x) - Number(y)));
    resumed.leave();
  });

  test('keel_realtime_connections{kind="sse"} counts the open event streams, and each event sent counts as a message out', async () => {
    // Streams of the tests before are closed on the server a moment after their clients left.
    await openStreams(b, 0);
    const sentBefore = await eventsSent(b);
    const first = await openEventStream(`${b.url}/orders/live`);
    const second = await openEventStream(`${b.url}/orders/live`);
    await openStreams(b, 2);
    await publishOrder(a, 20);
    for (const stream of [first, second])
      await stream.waitFor('the event', (seen) => eventsIn(seen).length === 1, 10_000);
    expect(await eventsSent(b)).toBe(sentBefore + 2);
    first.leave();
    await openStreams(b, 1);
    second.leave();
    await openStreams(b, 0);
  });
});
