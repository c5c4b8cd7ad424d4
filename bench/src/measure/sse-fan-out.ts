import { openEventStream, type OpenEventStream } from '../load/event-stream';
import { ServerProcess, type ServerLaunch } from '../processes/server-process';
import { median } from '../report/statistics';
import { ORDER_EVENTS, type OrderEvent } from '../servers/order-events';
import type { BenchSettings } from '../settings';
import { FanOutTally } from './fan-out-tally';
import { createRealtimeDatabase } from './realtime-database';

/** One keel process broadcasting to many SSE streams: medians over the rounds. */
export interface FanOutFigures {
  readonly streams: number;
  /** Events published per round. */
  readonly events: number;
  /** Events delivered to every stream per second, from the first publish to the last delivery. */
  readonly eventsPerSecond: number;
  /** The same in frames received, all streams together. */
  readonly deliveriesPerSecond: number;
  /** Publishes answered per second, one after another. */
  readonly publishesPerSecond: number;
  /** From an event's publish to its last stream receiving it, the median and the 99th percentile of all events. */
  readonly fanOutP50Ms: number;
  readonly fanOutP99Ms: number;
}

// Streams opened at once: a thousand connections together would only measure the accept queue.
const OPENING_BATCH = 50;
const CHECK_TIMEOUT_MS = 30_000;
// Beyond this, a round's events were lost, not slow.
const DELIVERY_TIMEOUT_MS = 120_000;

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

async function publish(baseUrl: string, sequence: number): Promise<Response> {
  const order: OrderEvent = { sequence };
  return fetch(baseUrl + ORDER_EVENTS.publishPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(order),
  });
}

/**
 * The answer check of the broadcast server: a stream opened, then an event published until the server
 * (its database connected and migrated in the background) answers 201, and that event seen on the
 * stream with the id the publish answered.
 */
async function checkDelivery(baseUrl: string): Promise<void> {
  const deadline = Date.now() + CHECK_TIMEOUT_MS;
  let seen: (id: string) => void = () => undefined;
  const arrival = new Promise<string>((resolve) => (seen = resolve));
  const stream = await openEventStream(baseUrl + ORDER_EVENTS.streamPath, (event) => seen(event.id));
  try {
    let answer = await publish(baseUrl, -1);
    while (answer.status !== 201 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await publish(baseUrl, -1);
    }
    const { id } = (await answer.json()) as { id?: string };
    if (answer.status !== 201 || id === undefined)
      throw new Error(`the broadcast server answered a publish with ${answer.status}, not 201 and an id`);
    const timeout = new Promise<string>((_, reject) =>
      setTimeout(
        () => reject(new Error('an event published reached no stream')),
        deadline - Date.now(),
      ).unref(),
    );
    const streamedId = await Promise.race([arrival, timeout]);
    if (streamedId !== id)
      throw new Error(`the stream received event ${streamedId}, not the ${id} published`);
  } finally {
    stream.close();
  }
}

async function openStreams(url: string, count: number, tally: FanOutTally): Promise<OpenEventStream[]> {
  const streams: OpenEventStream[] = [];
  while (streams.length < count) {
    const batch = Array.from({ length: Math.min(OPENING_BATCH, count - streams.length) }, (_, offset) => {
      const index = streams.length + offset;
      return openEventStream(url, (event) => tally.received(index, event));
    });
    streams.push(...(await Promise.all(batch)));
  }
  return streams;
}

interface RoundFigures {
  eventsPerSecond: number;
  publishesPerSecond: number;
  fanOutMs: number[];
}

/** Publishes `events` one after another from `first`, as fast as each is answered, and waits for every delivery. */
async function publishRound(
  baseUrl: string,
  tally: FanOutTally,
  first: number,
  events: number,
  streams: number,
): Promise<RoundFigures> {
  const last = first + events - 1;
  for (let sequence = first; sequence <= last; sequence += 1) {
    tally.sent(sequence);
    const answer = await publish(baseUrl, sequence);
    await answer.arrayBuffer();
    if (answer.status !== 201) throw new Error(`publishing event ${sequence} was answered ${answer.status}`);
  }
  const publishedAt = performance.now();
  await tally.delivered((last + 1) * streams, DELIVERY_TIMEOUT_MS);
  return {
    eventsPerSecond: events / tally.spanSeconds(first, last),
    publishesPerSecond: events / ((publishedAt - tally.sentAt(first)) / 1000),
    fanOutMs: tally.fanOutMs(first, last),
  };
}

/**
 * One keel process with `RealtimeModule` (Broadcast over a PostgreSQL database made for it), `streams`
 * SSE streams opened on it from the runner, then `events` events published through it one after
 * another, round after round: how many events a second reach every stream.
 */
export async function measureSseFanOut(
  launch: ServerLaunch,
  settings: BenchSettings,
): Promise<FanOutFigures> {
  const { fanOutStreams: streamCount, fanOutEvents: events } = settings;
  const database = await createRealtimeDatabase(settings.databaseUrl);
  try {
    const server = await ServerProcess.start(
      { name: 'keel broadcast', script: 'keel-broadcast-server.js' },
      // Straight to its own database: the counting proxy serves the other parts' table.
      { ...launch, databaseUrl: database.url },
    );
    const tally = new FanOutTally(streamCount);
    let streams: OpenEventStream[] = [];
    try {
      await checkDelivery(server.baseUrl);
      streams = await openStreams(server.baseUrl + ORDER_EVENTS.streamPath, streamCount, tally);
      const rounds: RoundFigures[] = [];
      for (let round = 0; round < settings.rounds; round += 1)
        rounds.push(await publishRound(server.baseUrl, tally, round * events, events, streamCount));
      const fanOutMs = rounds.flatMap((round) => round.fanOutMs);
      const eventsPerSecond = median(rounds.map((round) => round.eventsPerSecond));
      return {
        streams: streamCount,
        events,
        eventsPerSecond,
        deliveriesPerSecond: eventsPerSecond * streamCount,
        publishesPerSecond: median(rounds.map((round) => round.publishesPerSecond)),
        fanOutP50Ms: percentile(fanOutMs, 0.5),
        fanOutP99Ms: percentile(fanOutMs, 0.99),
      };
    } finally {
      for (const stream of streams) stream.close();
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}
