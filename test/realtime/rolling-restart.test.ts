import http from 'node:http';
import path from 'node:path';
import WebSocket from 'ws';
import { startChild, type ChildApp } from '../factories/child-app';
import { startBalancer, type Balancer } from '../factories/haproxy';
import { createScratchDatabase } from '../factories/scratch-database';
import { closedPort, postgresUrl } from '../factories/test-databases';
import { eventually } from '../factories/eventually';

jest.setTimeout(240_000);

const REPLICAS = ['r0', 'r1', 'r2'] as const;
const SSE_CLIENTS = 12;
const WS_CLIENTS = 12;
// Longer than HAProxy takes to see readiness fail (2 checks 300 ms apart): it stops sending first.
const SHUTDOWN_DELAY_MS = '1500';
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'apps', 'realtime-app.mjs');

function startReplica(databaseUrl: string, port: number): Promise<ChildApp> {
  return startChild({
    args: [FIXTURE],
    env: { DATABASE_URL: databaseUrl, PORT: String(port), SHUTDOWN_DELAY_MS },
    urlFrom: (lines) => (lines.some((line) => 'port' in line) ? `http://127.0.0.1:${port}` : undefined),
    startTimeoutMs: 30_000,
  });
}

/** What one client received: the ids in order, and how often it had to connect again. */
interface Received {
  readonly ids: string[];
  /** Each connection it opened, with the Last-Event-ID it sent. */
  readonly marks: string[];
  reconnects: number;
}

// An EventSource as browsers run it: on any end, it connects again with the last id it saw.
function sseClient(url: string): { received: Received; stop(): void } {
  const received: Received = { ids: [], marks: [], reconnects: 0 };
  let isStopped = false;
  let current: http.ClientRequest | undefined;
  const open = () => {
    const last = received.ids.at(-1);
    const headers: http.OutgoingHttpHeaders = { accept: 'text/event-stream' };
    if (last !== undefined) headers['last-event-id'] = last;
    received.marks.push(`open@${last ?? '-'}`);
    let buffer = '';
    let isDone = false;
    const again = () => {
      if (isDone || isStopped) return;
      isDone = true;
      received.reconnects += 1;
      // A browser's EventSource waits its retry delay before it reconnects: so does this client.
      setTimeout(open, 100);
    };
    current = http.get(`${url}/live`, { agent: false, headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return again();
      }
      res.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        const events = buffer.split('\n\n');
        buffer = events.pop() ?? '';
        for (const event of events) {
          const id = /^id: (\d+)$/m.exec(event)?.[1];
          if (id !== undefined) received.ids.push(id);
        }
      });
      res.on('end', again);
      res.on('error', again);
    });
    current.on('error', again);
  };
  open();
  return {
    received,
    stop: () => {
      isStopped = true;
      current?.destroy();
    },
  };
}

// A WebSocket client that connects again whenever its socket closes; it has no resume.
function wsClient(url: string): { received: Received; stop(): void } {
  const received: Received = { ids: [], marks: [], reconnects: 0 };
  let isStopped = false;
  let current: WebSocket | undefined;
  const open = () => {
    const ws = new WebSocket(`${url.replace('http://', 'ws://')}/ws`);
    current = ws;
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { event: string; id?: string };
      if (frame.event === 'tick' && frame.id !== undefined) received.ids.push(frame.id);
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (isStopped) return;
      received.reconnects += 1;
      setTimeout(open, 100);
    });
  };
  open();
  return {
    received,
    stop: () => {
      isStopped = true;
      current?.terminate();
    },
  };
}

// Publishes through the balancer one event after the other; keeps the ids it was answered with.
function startPublisher(url: string) {
  const acknowledged: string[] = [];
  let failures = 0;
  let isRunning = true;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const publishOne = (n: number) =>
    new Promise<string | undefined>((resolve) => {
      const req = http.request(`${url}/publish/${n}`, { method: 'POST', agent, timeout: 10_000 }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve(res.statusCode === 201 ? (JSON.parse(text) as { id: string }).id : undefined),
        );
        res.on('error', () => resolve(undefined));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(undefined));
      req.end();
    });
  const running = (async () => {
    for (let n = 0; isRunning; n++) {
      const id = await publishOne(n);
      if (id === undefined) failures += 1;
      else acknowledged.push(id);
      // The publishing rate (about 40 events a second), not a wait for something to happen.
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    acknowledged,
    get failures() {
      return failures;
    },
    async stop() {
      isRunning = false;
      await running;
      agent.destroy();
    },
  };
}

// Of the events acknowledged after the client's first one: those it missed, and those it got twice.
function tally(received: Received, acknowledged: readonly string[]) {
  const first = received.ids[0];
  const expected =
    first === undefined ? acknowledged : acknowledged.filter((id) => BigInt(id) >= BigInt(first));
  const seen = new Set(received.ids);
  const isOrdered = received.ids.every(
    (id, index) => index === 0 || BigInt(id) > BigInt(received.ids[index - 1] ?? '0'),
  );
  return {
    gaps: expected.filter((id) => !seen.has(id)).length,
    duplicates: received.ids.length - seen.size,
    isOrdered,
    reconnects: received.reconnects,
  };
}

test('three replicas behind HAProxy are replaced one by one while events are published: SSE clients resuming with Last-Event-ID miss none and get none twice', async () => {
  const database = await createScratchDatabase(postgresUrl());
  const ports = Object.fromEntries(
    await Promise.all(REPLICAS.map(async (name) => [name, await closedPort()] as const)),
  );
  const replicas: Record<string, ChildApp> = {};
  let balancer: Balancer | undefined;
  const clients: { received: Received; stop(): void }[] = [];
  try {
    // One first, so that its migration makes the table; then the other two.
    replicas.r0 = await startReplica(database.url, ports.r0 ?? 0);
    await eventually(async () => (await fetch(`http://127.0.0.1:${ports.r0}/health/ready`)).status === 200, {
      within: 30_000,
    });
    for (const name of ['r1', 'r2']) replicas[name] = await startReplica(database.url, ports[name] ?? 0);
    balancer = await startBalancer(ports);
    await balancer.waitUntilUp(REPLICAS, 30_000);
    const url = balancer.url;
    const sse = Array.from({ length: SSE_CLIENTS }, () => sseClient(url));
    const ws = Array.from({ length: WS_CLIENTS }, () => wsClient(url));
    clients.push(...sse, ...ws);
    const publisher = startPublisher(url);
    await eventually(() => sse.every((client) => client.received.ids.length > 0), {
      within: 30_000,
      what: 'every SSE client to get an event',
    });

    const exits: (number | null)[] = [];
    for (const name of REPLICAS) {
      const old = replicas[name] as ChildApp;
      old.child.kill('SIGTERM');
      exits.push((await old.exited).code);
      replicas[name] = await startReplica(database.url, ports[name] ?? 0);
      await balancer.waitUntilUp(REPLICAS, 30_000);
    }
    await publisher.stop();
    const last = publisher.acknowledged.at(-1) ?? '';
    await eventually(() => sse.every((client) => client.received.ids.includes(last)), {
      within: 30_000,
      what: 'every SSE client to get the last event',
    });

    const sseTallies = sse.map((client) => tally(client.received, publisher.acknowledged));
    const wsTallies = ws.map((client) => tally(client.received, publisher.acknowledged));
    const sum = (tallies: ReturnType<typeof tally>[], key: 'gaps' | 'duplicates' | 'reconnects') =>
      tallies.reduce((total, entry) => total + entry[key], 0);
    const figures = {
      published: publisher.acknowledged.length,
      publishFailures: publisher.failures,
      sse: {
        clients: SSE_CLIENTS,
        received: sse.reduce((n, c) => n + c.received.ids.length, 0),
        gaps: sum(sseTallies, 'gaps'),
        duplicates: sum(sseTallies, 'duplicates'),
        reconnects: sum(sseTallies, 'reconnects'),
      },
      ws: {
        clients: WS_CLIENTS,
        received: ws.reduce((n, c) => n + c.received.ids.length, 0),
        gaps: sum(wsTallies, 'gaps'),
        duplicates: sum(wsTallies, 'duplicates'),
        reconnects: sum(wsTallies, 'reconnects'),
      },
    };
    process.stdout.write(`realtime rolling restart: ${JSON.stringify(figures)}\n`);
    // What a client missed, beside where it reconnected, for a failure to be read.
    for (const client of sse) {
      const seen = new Set(client.received.ids);
      const first = BigInt(client.received.ids[0] ?? '0');
      const missing = publisher.acknowledged.filter((id) => BigInt(id) >= first && !seen.has(id));
      if (missing.length > 0)
        process.stdout.write(
          `SSE client missed ${missing.join(',')}; it opened ${client.received.marks.join(', ')}\n`,
        );
    }

    expect(exits).toEqual([0, 0, 0]);
    expect(publisher.acknowledged.length).toBeGreaterThan(50);
    expect(figures.sse.gaps).toBe(0);
    expect(figures.sse.duplicates).toBe(0);
    expect(sseTallies.every((entry) => entry.isOrdered)).toBe(true);
    // Each restart closed the clients connected to the replica that went: they came back.
    expect(figures.sse.reconnects).toBeGreaterThan(0);
    // WebSocket clients have no resume: they may miss what was published while they reconnected, never get one twice.
    expect(figures.ws.duplicates).toBe(0);
  } finally {
    for (const client of clients) client.stop();
    await balancer?.stop();
    for (const replica of Object.values(replicas)) {
      replica.child.kill('SIGKILL');
      await replica.exited;
    }
    await database.drop();
  }
});
