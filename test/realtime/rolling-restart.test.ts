import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Redis from 'ioredis';
import { startChild, type ChildApp } from '../factories/child-app';
import { sumOf, tallyDelivery } from '../factories/delivery-tally';
import { eventually } from '../factories/eventually';
import { startBalancer, type Balancer } from '../factories/haproxy';
import { startKeepAliveLoad } from '../factories/keep-alive-load';
import { scrape, valueOf } from '../factories/metrics';
import { startPacedPublisher } from '../factories/paced-publisher';
import { openReconnectingWebSocket, type ReconnectingWebSocket } from '../factories/reconnecting-websocket';
import { openResumingEventSource, type ResumingEventSource } from '../factories/resuming-event-source';
import { createScratchDatabase } from '../factories/scratch-database';
import { closedPort, postgresUrl } from '../factories/test-databases';

jest.setTimeout(360_000);

const REPLICAS = ['r0', 'r1', 'r2'] as const;
const SSE_CLIENTS = 100;
const WS_CLIENTS = 100;
// Events a second, from the three replicas together (each publishes a third, to its own port).
const EVENTS_PER_SECOND = 50;
// Posts in flight, or answered but not yet counted: a publisher this close is on its schedule.
const MAX_BEHIND = 4;
const KEEP_ALIVE_PER_SECOND = 200;
// Longer than HAProxy can take to see readiness fail, so that it stops sending first: 2 checks 300 ms
// apart, each allowed 1 s (its `timeout check`) by a replica slow to answer on a loaded machine.
const SHUTDOWN_DELAY_MS = '3000';
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'apps', 'realtime-app.mjs');
// How events reach the other replicas: RealtimeModule.forRoot's `via`, the fixture's REALTIME_VIA.
const TRANSPORTS = ['postgres', 'redis'] as const;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// The Redis keys of one run: runs side by side on one Redis never share a channel.
const KEY_PREFIX = `keel-rolling-${randomBytes(4).toString('hex')}:`;

function startReplica(databaseUrl: string, port: number, via: string): Promise<ChildApp> {
  return startChild({
    args: [FIXTURE],
    env: {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      SHUTDOWN_DELAY_MS,
      REALTIME_VIA: via,
      REDIS_URL,
      REALTIME_KEY_PREFIX: KEY_PREFIX,
    },
    urlFrom: (lines) => (lines.some((line) => 'port' in line) ? `http://127.0.0.1:${port}` : undefined),
    startTimeoutMs: 30_000,
  });
}

describe.each(TRANSPORTS)('realtime through %s', (via) => {
  test('three replicas behind HAProxy are replaced one by one under 100 SSE and 100 WebSocket clients, 50 events a second and a keep-alive load: no SSE client misses an event or gets one twice, every WebSocket is closed 1001 and comes back, no request of the load fails', async () => {
    const database = await createScratchDatabase(postgresUrl());
    const ports = Object.fromEntries(
      await Promise.all(REPLICAS.map(async (name) => [name, await closedPort()] as const)),
    );
    const portOf = (name: string) => ports[name] ?? 0;
    const replicas: Record<string, ChildApp> = {};
    let balancer: Balancer | undefined;
    const stops: (() => unknown)[] = [];
    try {
      // One first, so that its migration makes the table; then the other two.
      replicas.r0 = await startReplica(database.url, portOf('r0'), via);
      await eventually(async () => (await fetch(`${replicas.r0?.url}/health/ready`)).status === 200, {
        within: 30_000,
      });
      for (const name of ['r1', 'r2']) replicas[name] = await startReplica(database.url, portOf(name), via);
      balancer = await startBalancer(ports);
      await balancer.waitUntilUp(REPLICAS, 30_000);

      const load = startKeepAliveLoad(`${balancer.url}/health`, {
        perSecond: KEEP_ALIVE_PER_SECOND,
        concurrency: 4,
      });
      stops.push(() => load.stop());
      const sse: ResumingEventSource[] = Array.from({ length: SSE_CLIENTS }, () =>
        openResumingEventSource(`${balancer?.url}/live`),
      );
      const ws: ReconnectingWebSocket[] = Array.from({ length: WS_CLIENTS }, () =>
        openReconnectingWebSocket(`${balancer?.url.replace('http://', 'ws://')}/ws`),
      );
      for (const client of [...sse, ...ws]) stops.push(() => client.stop());
      const publishingSince = performance.now();
      const publishers = REPLICAS.map((name) =>
        startPacedPublisher(`http://127.0.0.1:${portOf(name)}`, EVENTS_PER_SECOND / REPLICAS.length),
      );
      for (const publisher of publishers) stops.push(() => publisher.stop());
      await eventually(() => sse.every((client) => client.record.ids.length > 0), {
        within: 60_000,
        what: 'every SSE client to get an event',
      });
      await eventually(() => ws.every((client) => client.pid !== undefined), {
        within: 60_000,
        what: 'every WebSocket client to join',
      });

      const exits: (number | null)[] = [];
      // Per restart: the WebSocket clients the stopped replica held, which must all come back.
      const heldByStopped: number[] = [];
      const restartedAt: number[] = [];
      for (const name of REPLICAS) {
        const old = replicas[name] as ChildApp;
        const held = ws.filter((client) => client.pid === old.child.pid);
        heldByStopped.push(held.length);
        restartedAt.push(Math.round(performance.now()));
        old.child.kill('SIGTERM');
        exits.push((await old.exited).code);
        replicas[name] = await startReplica(database.url, portOf(name), via);
        await balancer.waitUntilUp(REPLICAS, 30_000);
        const oldPid = old.child.pid;
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
      const acknowledged = publishers.flatMap((publisher) => publisher.acknowledged).sort((a, b) => a - b);
      const last = acknowledged.at(-1) ?? 0;
      await eventually(() => sse.every((client) => client.record.ids.includes(last)), {
        within: 30_000,
        what: 'every SSE client to get the last event',
      });

      // The series, once every client is connected again and each replica has counted it.
      const pids = REPLICAS.map((name) => replicas[name]?.child.pid);
      const scrapes = await eventually(
        async () => {
          const samples = await Promise.all(
            REPLICAS.map((name) => scrape(`http://127.0.0.1:${portOf(name)}/metrics`)),
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

      const sseTallies = sse.map((client) => tallyDelivery(client.record.ids, acknowledged));
      const wsTallies = ws.map((client) => tallyDelivery(client.record.ids, acknowledged));
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
            `SSE client missed ${missing.join(',')}; it ${client.record.opens.join(', ')}\n`,
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
          // Each connection's `joined` frame, and its ticks.
          (connection) => connection.ticks + 1,
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
      await balancer?.stop();
      for (const replica of Object.values(replicas)) {
        replica.child.kill('SIGKILL');
        await replica.exited;
      }
      await database.drop();
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
