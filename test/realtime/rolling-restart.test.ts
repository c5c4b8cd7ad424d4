import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { logged } from '../factories/child-app';
import { sumOf, tallyDelivery, type ReceivedOrder } from '../factories/delivery-tally';
import { eventually } from '../factories/eventually';
import { startKeepAliveLoad } from '../factories/keep-alive-load';
import { scrape, valueOf } from '../factories/metrics';
import { startPacedPublisher } from '../factories/paced-publisher';
import { openReconnectingWebSocket, type ReconnectingWebSocket } from '../factories/reconnecting-websocket';
import { openResumingEventSource, type ResumingEventSource } from '../factories/resuming-event-source';
import { SAMPLE_ORDER, createSampleOrder, type RunningSample } from '../factories/sample';
import { startSampleReplicas } from '../factories/sample-replicas';

jest.setTimeout(360_000);

const REPLICAS = ['r0', 'r1', 'r2'] as const;
const SSE_CLIENTS = 100;
const WS_CLIENTS = 100;
// Orders a second, from the three replicas together (each gets a third, on its own port): each
// order is one `order` event on the live channel.
const EVENTS_PER_SECOND = 50;
// Posts in flight, or answered but not yet counted: a publisher this close is on its schedule.
const MAX_BEHIND = 4;
const KEEP_ALIVE_PER_SECOND = 200;
// Every publisher writes from this one address: the sample's write limit would refuse them.
const UNLIMITED_WRITES = String(Number.MAX_SAFE_INTEGER);
// Longer than HAProxy can take to see readiness fail, so that it stops sending first: 2 checks 300 ms
// apart, each allowed 1 s (its `timeout check`) by a replica slow to answer on a loaded machine.
const SHUTDOWN_DELAY_MS = '3000';
// How the live list's events reach the other replicas: the sample's REALTIME_VIA.
const TRANSPORTS = ['postgres', 'redis'] as const;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// The Redis keys of one run: runs side by side on one Redis never share a channel.
const KEY_PREFIX = `keel-rolling-${randomBytes(4).toString('hex')}:`;

// The settings of a replica of the sample; over PostgreSQL it is given no Redis at all.
function replicaEnv(via: (typeof TRANSPORTS)[number]): Record<string, string | undefined> {
  const redis =
    via === 'redis'
      ? { REDIS_URL, REALTIME_KEY_PREFIX: KEY_PREFIX }
      : { REDIS_URL: undefined, REALTIME_KEY_PREFIX: undefined };
  return { SHUTDOWN_DELAY_MS, API_WRITES_PER_MINUTE: UNLIMITED_WRITES, REALTIME_VIA: via, ...redis };
}

// The sample serves its metrics on a port of its own (METRICS_PORT=0: a free one), which it logs.
function metricsUrlOf(replica: RunningSample): string {
  const url = logged(replica.lines(), 'serving metrics')[0]?.url;
  if (typeof url !== 'string') throw new Error('the replica logged no metrics URL');
  return url;
}

// What a client received up to order `last` (an order whose post timed out may still come after
// it), its events' ids and orders, as one text to compare clients by.
function sequenceOf(orders: readonly ReceivedOrder[], last: number): string {
  const through = orders.findIndex((event) => event.orderId === last);
  return orders
    .slice(0, through + 1)
    .map(({ eventId, orderId }) => `${eventId}:${orderId}`)
    .join(',');
}

describe.each(TRANSPORTS)('the sample realtime through %s', (via) => {
  test('three sample replicas behind HAProxy are replaced one by one under 100 SSE and 100 WebSocket clients, 50 orders a second and a keep-alive load: every SSE client gets every order once, in order, every WebSocket is closed 1001 and comes back, no request of the load fails', async () => {
    // It stops what it started when a replica does not come up.
    const replicas = await startSampleReplicas(REPLICAS, replicaEnv(via));
    const { balancer, authorization } = replicas;
    const stops: (() => unknown)[] = [];
    try {
      const load = startKeepAliveLoad(`${balancer.url}/health`, {
        perSecond: KEEP_ALIVE_PER_SECOND,
        concurrency: 4,
      });
      stops.push(() => load.stop());
      const sse: ResumingEventSource[] = Array.from({ length: SSE_CLIENTS }, () =>
        openResumingEventSource(`${balancer.url}/orders/live/events`),
      );
      const ws: ReconnectingWebSocket[] = Array.from({ length: WS_CLIENTS }, () =>
        openReconnectingWebSocket(`${balancer.url.replace('http://', 'ws://')}/orders/live/socket`),
      );
      for (const client of [...sse, ...ws]) stops.push(() => client.stop());
      // Subscribed before the first order is stored (an open stream, a greeted socket): every SSE
      // client owes every order of the run, and the channel has had no other.
      await eventually(() => sse.every((client) => client.isOpen), {
        within: 60_000,
        what: 'every SSE client to open its stream',
      });
      await eventually(() => ws.every((client) => client.pid !== undefined), {
        within: 60_000,
        what: 'every WebSocket client to be greeted',
      });
      const publishingSince = performance.now();
      const publishers = REPLICAS.map((name) =>
        startPacedPublisher({
          url: `${replicas.urlOf(name)}/api/orders`,
          perSecond: EVENTS_PER_SECOND / REPLICAS.length,
          headers: authorization,
          bodyOf: (n) => ({ ...SAMPLE_ORDER, product: `${name}-${n}` }),
        }),
      );
      for (const publisher of publishers) stops.push(() => publisher.stop());
      await eventually(() => sse.every((client) => client.record.orders.length > 0), {
        within: 60_000,
        what: 'every SSE client to get an order',
      });

      const exits: (number | null)[] = [];
      // Per restart: the WebSocket clients the stopped replica held, which must all come back.
      const heldByStopped: number[] = [];
      const restartedAt: number[] = [];
      for (const name of REPLICAS) {
        const oldPid = replicas.replica(name).child.pid;
        const held = ws.filter((client) => client.pid === oldPid);
        heldByStopped.push(held.length);
        restartedAt.push(Math.round(performance.now()));
        exits.push(await replicas.replace(name));
        await eventually(() => held.every((client) => client.pid !== undefined && client.pid !== oldPid), {
          within: 30_000,
          what: `the WebSocket clients of the old ${name} to be connected again`,
        });
      }
      // The publisher of the replica restarted last fell behind while it was away: the rate is
      // measured once it has caught up.
      await eventually(
        () => {
          const behind = publishers.map((publisher) => publisher.behind);
          if (behind.some((events) => events > MAX_BEHIND))
            throw new Error(`events behind: ${behind.join(', ')}`);
        },
        {
          within: 30_000,
          what: 'every publisher to catch up with its schedule',
        },
      );
      await Promise.all(publishers.map((publisher) => publisher.stop()));
      const publishedForMs = performance.now() - publishingSince;
      await load.stop();
      const acknowledged = publishers.flatMap((publisher) => publisher.acknowledged);
      // Stored once every other post was answered, so its event's id is above every acknowledged
      // one's: an SSE client that has it has been sent all of those.
      const { id: closingOrder } = await createSampleOrder(replicas.replica('r0').url, {
        ...SAMPLE_ORDER,
        product: 'closing',
      });
      const owed = [...acknowledged, closingOrder];
      await eventually(
        () => sse.every((client) => client.record.orders.some((event) => event.orderId === closingOrder)),
        { within: 30_000, what: 'every SSE client to get the closing order' },
      );

      // The series, once every client is connected again and each replica has counted it.
      const pids = REPLICAS.map((name) => replicas.replica(name).child.pid);
      const scrapes = await eventually(
        async () => {
          const samples = await Promise.all(
            REPLICAS.map((name) => scrape(metricsUrlOf(replicas.replica(name)))),
          );
          const open = sumOf(
            samples,
            (s) => valueOf(s, 'keel_realtime_connections', { kind: 'websocket' }) ?? 0,
          );
          const streams = sumOf(
            samples,
            (s) => valueOf(s, 'keel_realtime_connections', { kind: 'sse' }) ?? 0,
          );
          return (
            open === WS_CLIENTS &&
            streams === SSE_CLIENTS &&
            ws.every((client) => pids.includes(client.pid)) &&
            sse.every((client) => client.isOpen) &&
            samples
          );
        },
        {
          within: 30_000,
          what: `${WS_CLIENTS} WebSockets and ${SSE_CLIENTS} event streams counted by the new replicas`,
        },
      );

      const sseTallies = sse.map((client) => tallyDelivery(client.record.orders, owed));
      const wsTallies = ws.map((client) => tallyDelivery(client.record.orders, owed));
      // Every SSE client owed the whole channel: each received the same events, ids and orders.
      const sseSequences = new Set(sse.map((client) => sequenceOf(client.record.orders, closingOrder)));
      const closeCodes = ws.flatMap((client) =>
        client.record.connections.flatMap((connection) => connection.closeCode ?? []),
      );
      const figures = {
        via,
        published: {
          acknowledged: acknowledged.length,
          perSecond: Math.round((acknowledged.length / publishedForMs) * 1000 * 10) / 10,
          failures: publishers.map((publisher) => publisher.failures),
        },
        sse: {
          clients: SSE_CLIENTS,
          received: sumOf(sseTallies, (tally) => tally.received),
          gaps: sumOf(sseTallies, (tally) => tally.missing.length),
          duplicates: sumOf(sseTallies, (tally) => tally.duplicates),
          sequences: sseSequences.size,
          reconnects: sumOf(sse, (client) => client.record.reconnects),
          refusals: sumOf(sse, (client) => client.record.refusals),
        },
        ws: {
          clients: WS_CLIENTS,
          received: sumOf(wsTallies, (tally) => tally.received),
          gaps: sumOf(wsTallies, (tally) => tally.missing.length),
          duplicates: sumOf(wsTallies, (tally) => tally.duplicates),
          reconnects: sumOf(ws, (client) => client.record.reconnects),
          heldByStopped,
          closeCodes: countEach(closeCodes),
        },
        keepAlive: { sent: load.sent, failures: load.failures.length, sockets: load.sockets },
        metrics: scrapes.map((samples) => ({
          websocket: valueOf(samples, 'keel_realtime_connections', { kind: 'websocket' }),
          sse: valueOf(samples, 'keel_realtime_connections', { kind: 'sse' }),
          out: valueOf(samples, 'keel_realtime_messages_total', { direction: 'out' }),
        })),
        exits,
      };
      process.stdout.write(`realtime rolling restart: ${JSON.stringify(figures)}\n`);
      // What a client missed, beside where it reconnected, for a failure to be read.
      sse.forEach((client, index) => {
        const { missing } = sseTallies[index] ?? { missing: [] };
        if (missing.length > 0)
          process.stdout.write(
            `SSE client missed orders ${missing.join(',')}; it ${client.record.opens.join(', ')}\n`,
          );
      });
      if (load.failures.length > 0)
        process.stdout.write(
          `keep-alive failures: ${JSON.stringify(load.failures.slice(0, 5))}; restarts at ${JSON.stringify(restartedAt)}\n`,
        );

      expect(exits).toEqual([0, 0, 0]);
      // The rate asked for, within 10 %: three publishers, each to its own replica.
      expect(figures.published.perSecond).toBeGreaterThanOrEqual(EVENTS_PER_SECOND * 0.9);
      expect(figures.sse.gaps).toBe(0);
      expect(figures.sse.duplicates).toBe(0);
      expect(sseTallies.every((tally) => tally.isOrdered)).toBe(true);
      expect(figures.sse.sequences).toBe(1);
      // Every replica was stopped once, so every client was on one that stopped at least once: it came back.
      expect(sse.filter((client) => client.record.reconnects === 0).length).toBe(0);
      // WebSocket clients have no resume: they may miss what was published while they reconnected, never get one twice.
      expect(figures.ws.duplicates).toBe(0);
      // Every close the run saw was a restart's "going away"; each client a stopped replica held came back.
      expect(figures.ws.closeCodes).toEqual({ 1001: closeCodes.length });
      expect(closeCodes.length).toBeGreaterThanOrEqual(sumOf(heldByStopped, (n) => n));
      expect(figures.ws.reconnects).toBeGreaterThanOrEqual(sumOf(heldByStopped, (n) => n));
      expect(
        ws.filter((client) => !client.record.connections.some((connection) => connection.closeCode === 1001))
          .length,
      ).toBe(0);
      expect(load.sent).toBeGreaterThan(1000);
      expect(load.failures.length).toBe(0);

      // Each new replica counts the sockets it holds, and at least every frame its clients received.
      REPLICAS.forEach((name, index) => {
        const samples = scrapes[index] ?? [];
        const framesReceived = sumOf(
          ws.flatMap((client) => client.record.connections.filter((c) => c.pid === pids[index])),
          // Each connection's `hello` frame, and its orders.
          (connection) => connection.orders + 1,
        );
        const out = valueOf(samples, 'keel_realtime_messages_total', { direction: 'out' });
        // Named, so that a replica without the series says which it is.
        expect({ name, out }).toEqual({ name, out: expect.any(Number) });
        expect(out).toBeGreaterThanOrEqual(framesReceived);
      });
      // Every SSE client's stream is open on one of the new replicas, and counted there.
      expect(
        sumOf(scrapes, (samples) => valueOf(samples, 'keel_realtime_connections', { kind: 'sse' }) ?? 0),
      ).toBe(SSE_CLIENTS);
    } finally {
      for (const stop of stops) await stop();
      await replicas.stop();
      if (via === 'redis') await deleteKeys(KEY_PREFIX);
    }
  });
});

async function deleteKeys(prefix: string): Promise<void> {
  const admin = new Redis(REDIS_URL);
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
}

function countEach(values: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
