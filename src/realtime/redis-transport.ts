import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logging/logger';
import type { ChannelEvent } from './channel-hub';
import type { RedisConnection } from './redis-connection';
import { PUBLISH_EVENT, REPLAY_EVENTS } from './redis-event-scripts';
import { RedisSubscriber } from './redis-subscriber';
import type { LocalSubscribers, RealtimeTransport, TransportSettings } from './realtime-transport';

/** Settings of the Redis transport, from `RealtimeModule.forRoot`. @internal */
export interface RedisTransportSettings extends TransportSettings {
  /** What every key and the pub/sub channel start with. */
  readonly keyPrefix: string;
}

const HIGHEST_ID_TIMEOUT_MS = 3000;
const CATCH_UP_RETRY_MS = 1000;

/**
 * Events through the application's Redis: a Lua script gives each event the next id, stores it in
 * its channel's sorted set (`<prefix>channel:<channel>`, kept for the replay window) and publishes it
 * on one pub/sub channel (`<prefix>events`); every replica's subscriber connection hears it and
 * delivers it to its own subscribers. After the subscriber reconnects, each channel with subscribers
 * here is read from the last id heard, so nothing published meanwhile is lost.
 *
 * @example
 * const transport = new RedisTransport(redis, { replayWindowMs: 120_000, keyPrefix: 'keel:realtime:' }, logger);
 */
export class RedisTransport implements RealtimeTransport {
  readonly #client: RedisConnection;
  readonly #settings: RedisTransportSettings;
  readonly #logger: Logger;
  readonly #subscriber: RedisSubscriber;
  #subscribers: LocalSubscribers | undefined;
  // The highest id delivered: the subscriber hears ids in increasing order, so everything up to it
  // has been heard, and a catch-up starts after it.
  #lastId = 0n;
  // What the subscriber heard since it (re)subscribed, until the catch-up is delivered: held back
  // so that it never overtakes an older event the catch-up reads.
  #held: ChannelEvent[] | undefined = [];
  // Counts the connection's losses: a catch-up begun before one is abandoned.
  #losses = 0;
  #isStopped = false;

  constructor(client: RedisConnection, settings: RedisTransportSettings, logger: Logger) {
    this.#client = client;
    this.#settings = settings;
    this.#logger = logger;
    this.#subscriber = new RedisSubscriber(client, `${settings.keyPrefix}events`, logger, {
      onMessage: (message) => this.#hear(message),
      onListening: () => void this.#catchUp(),
      onLost: () => {
        this.#losses++;
        this.#held = [];
      },
    });
  }

  get isListening(): boolean {
    return this.#subscriber.isListening;
  }

  async start(subscribers: LocalSubscribers): Promise<void> {
    this.#subscribers = subscribers;
    // Read before any client can subscribe: whatever is published from here on, before the
    // subscriber is up included, reaches the subscribers through the first catch-up.
    this.#lastId = await this.#highestId();
    this.#subscriber.start();
  }

  stop(): Promise<void> {
    this.#isStopped = true;
    this.#subscriber.stop();
    return Promise.resolve();
  }

  async publish(channel: string, event: string, data: unknown): Promise<string> {
    const { keyPrefix, replayWindowMs } = this.#settings;
    const id = await PUBLISH_EVENT.run(
      this.#client,
      [`${keyPrefix}id`, `${keyPrefix}channel:${channel}`],
      [`${keyPrefix}events`, JSON.stringify({ channel, event, data: data ?? null }), String(replayWindowMs)],
    );
    return String(id);
  }

  async replay(channel: string, after: bigint): Promise<ChannelEvent[]> {
    const members = (await REPLAY_EVENTS.run(
      this.#client,
      [`${this.#settings.keyPrefix}channel:${channel}`],
      [String(after), String(this.#settings.replayWindowMs)],
    )) as string[];
    return members.flatMap((member) => eventOf(member) ?? []);
  }

  async #highestId(): Promise<bigint> {
    const timeout = sleep(HIGHEST_ID_TIMEOUT_MS, null, { ref: false });
    const read = this.#client.get(`${this.#settings.keyPrefix}id`).catch(() => null);
    const id = await Promise.race([read, timeout]);
    // Unknown (Redis down at boot): the first catch-up takes the whole window.
    return id !== null && /^\d+$/.test(id) ? BigInt(id) : 0n;
  }

  #hear(message: string): void {
    const event = eventOf(message);
    if (!event) return;
    if (this.#held) this.#held.push(event);
    else if (BigInt(event.id) > this.#lastId) this.#deliver(event);
  }

  // Reads every channel with subscribers here from the last id delivered, then delivers that, then
  // what was heard meanwhile and not read; tried again while the connection stays up.
  async #catchUp(): Promise<void> {
    const losses = this.#losses;
    for (;;) {
      try {
        const after = this.#lastId;
        const channels = [...(this.#subscribers?.channels() ?? [])];
        const missed = await Promise.all(channels.map((channel) => this.replay(channel, after)));
        if (losses === this.#losses) this.#release(missed.flat());
        return;
      } catch (error) {
        if (losses !== this.#losses || this.#isStopped) return;
        this.#logger.warn({ err: error, retryInMs: CATCH_UP_RETRY_MS }, 'realtime Redis catch-up failed');
        await sleep(CATCH_UP_RETRY_MS, undefined, { ref: false });
        if (losses !== this.#losses || this.#isStopped) return;
      }
    }
  }

  #release(missed: readonly ChannelEvent[]): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    const caughtUp = new Map<string, bigint>();
    for (const event of missed) {
      caughtUp.set(event.channel, BigInt(event.id));
      this.#deliver(event);
    }
    for (const event of held) {
      const read = caughtUp.get(event.channel);
      if (read === undefined || BigInt(event.id) > read) this.#deliver(event);
    }
  }

  #deliver(event: ChannelEvent): void {
    const id = BigInt(event.id);
    if (id > this.#lastId) this.#lastId = id;
    this.#subscribers?.deliver(event);
  }
}

// A stored or published member as the channel event it holds; undefined for anything else.
function eventOf(member: string): ChannelEvent | undefined {
  try {
    const { id, channel, event, data } = JSON.parse(member) as Partial<ChannelEvent>;
    if (typeof id !== 'string' || typeof channel !== 'string' || typeof event !== 'string') return undefined;
    return { id, channel, event, data };
  } catch {
    return undefined;
  }
}
