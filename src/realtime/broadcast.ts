import type { SseEvent } from '../http/event-frame';
import { ChannelHub, type ChannelEvent, type ChannelListener } from './channel-hub';
import type { RealtimeCounters } from './realtime-metrics';
import type { RealtimeTransport } from './realtime-transport';

/**
 * Sends events to every WebSocket and SSE stream subscribed to a channel, on every replica: each
 * event is stored with an increasing id and announced, by the transport `RealtimeModule.forRoot`
 * chose (the application's PostgreSQL, `LISTEN`/`NOTIFY`, or its Redis, pub/sub), and every replica
 * delivers it to its own subscribers. Events stay for the replay window (default 2 minutes): a client
 * that reconnects, to any replica, with `Last-Event-ID` gets what it missed, in order.
 *
 * @example
 * await broadcast.publish('orders', 'created', { id: 7 });
 * @Sse('orders/live') live(ctx: Context) { return this.broadcast.stream('orders', ctx.lastEventId); }
 */
export class Broadcast {
  readonly #hub = new ChannelHub();
  readonly #transport: RealtimeTransport;
  // Where its event streams are counted: `keel_realtime_*{kind="sse"}` with `MetricsModule`.
  readonly #counters: RealtimeCounters;

  /** @internal made by RealtimeModule */
  constructor(transport: RealtimeTransport, counters: RealtimeCounters) {
    this.#transport = transport;
    this.#counters = counters;
  }

  /** @internal starts listening before the application serves */
  async onApplicationBootstrap(): Promise<void> {
    await this.#transport.start(this.#hub);
  }

  /** @internal */
  async onApplicationShutdown(): Promise<void> {
    await this.#transport.stop();
  }

  /** Whether this replica's connection (`LISTEN`, or Redis's subscriber) is up: events published elsewhere reach it. */
  get isListening(): boolean {
    return this.#transport.isListening;
  }

  /**
   * Stores the event and wakes every replica; resolves with its id once it is stored and published.
   * @example const id = await broadcast.publish('orders', 'created', order)
   */
  publish(channel: string, event: string, data?: unknown): Promise<string> {
    return this.#transport.publish(channel, event, data);
  }

  /** `publish` by channel first. @example await broadcast.to('orders').emit('created', order) */
  to(channel: string): { emit(event: string, data?: unknown): Promise<string> } {
    return { emit: (event, data) => this.publish(channel, event, data) };
  }

  /** Calls `listener` with each event of `channel` this replica learns of; returns the unsubscribe. @example broadcast.subscribe('orders', (e) => ...) */
  subscribe(channel: string, listener: ChannelListener): () => void {
    return this.#hub.subscribe(channel, listener);
  }

  /**
   * The events of `channel` as Server-Sent Events (`id`, `event`, `data`): first those after
   * `lastEventId` still in the replay window, then each one this replica hears of from then on, in
   * id order and none twice; ends when the client goes (or the server shuts down). Without
   * `lastEventId`, an event published elsewhere a moment before the stream opened is among them
   * when this replica hears of it after: a client that must not miss one names the last id it has.
   * Return it from an `@Sse()` handler, or give it to `ctx.sse()`.
   *
   * @example
   * @Sse('orders/live') live(@LastEventId() last?: string) { return this.broadcast.stream('orders', last); }
   */
  stream(channel: string, lastEventId?: string): AsyncIterableIterator<SseEvent> {
    const queue: ChannelEvent[] = [];
    let wake: (() => void) | undefined;
    let isDone = false;
    const unsubscribe = this.#hub.subscribe(channel, (event) => {
      queue.push(event);
      wake?.();
    });
    let last = parseId(lastEventId);
    const replay = last === undefined ? Promise.resolve([]) : this.#transport.replay(channel, last);
    let replayed: ChannelEvent[] | undefined;
    const counters = this.#counters;
    // Counted from the first read: a stream made but never served is no connection.
    let isCounted = false;
    const finish = (): IteratorResult<SseEvent> => {
      if (isCounted) counters.connections(-1);
      isCounted = false;
      isDone = true;
      unsubscribe();
      wake?.();
      return { done: true, value: undefined };
    };
    const iterator: AsyncIterableIterator<SseEvent> = {
      [Symbol.asyncIterator]: () => iterator,
      next: async () => {
        if (!isDone && !isCounted) {
          isCounted = true;
          counters.connections(1);
        }
        replayed ??= await replay.catch((error: unknown) => {
          finish();
          throw error;
        });
        for (;;) {
          if (isDone) return { done: true, value: undefined };
          const event = replayed.shift() ?? queue.shift();
          if (event) {
            const id = BigInt(event.id);
            if (last !== undefined && id <= last) continue;
            last = id;
            counters.message('out');
            return { done: false, value: { id: event.id, event: event.event, data: event.data } };
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      },
      return: () => Promise.resolve(finish()),
    };
    return iterator;
  }
}

function parseId(value: string | undefined): bigint | undefined {
  if (value === undefined || !/^\d{1,19}$/.test(value)) return undefined;
  return BigInt(value);
}
