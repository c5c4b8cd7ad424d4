import type { Logger } from '../logging/logger';
import type { RedisConnection } from './redis-connection';

/** What the subscriber connection reports. */
export interface SubscriberEvents {
  /** A message published on the channel. */
  onMessage(message: string): void;
  /** The connection is (again) subscribed: what was published while it was not must be caught up. */
  onListening(): void;
  /** The connection dropped: nothing is heard until it is subscribed again. */
  onLost(): void;
}

/**
 * One connection of its own (a duplicate of the application's client: a subscribed connection runs
 * no other command) that subscribes to one pub/sub channel, again each time ioredis has
 * reconnected it. It is named `<the client's connectionName, or keel>:realtime` in `CLIENT LIST`.
 *
 * @example
 * const subscriber = new RedisSubscriber(client, 'keel:realtime:events', logger, { onMessage, onListening, onLost });
 * subscriber.start();
 */
export class RedisSubscriber {
  readonly #client: RedisConnection;
  readonly #channel: string;
  readonly #logger: Logger;
  readonly #events: SubscriberEvents;
  #connection: RedisConnection | undefined;
  #isListening = false;
  #isStopped = false;
  #lastError: unknown;

  constructor(client: RedisConnection, channel: string, logger: Logger, events: SubscriberEvents) {
    this.#client = client;
    this.#channel = channel;
    this.#logger = logger;
    this.#events = events;
  }

  /** Whether the connection is subscribed now. */
  get isListening(): boolean {
    return this.#isListening;
  }

  start(): void {
    const connection = this.#client.duplicate({
      connectionName: `${this.#client.options.connectionName ?? 'keel'}:realtime`,
      // Subscribed here on every 'ready', so that the catch-up follows a subscription it can rely on.
      autoResubscribe: false,
      lazyConnect: false,
    });
    this.#connection = connection;
    connection.on('ready', () => void this.#subscribe(connection));
    connection.on('message', (channel, message) => {
      if (channel === this.#channel) this.#events.onMessage(message);
    });
    connection.on('error', (error) => (this.#lastError = error));
    connection.on('close', () => {
      if (this.#isListening && !this.#isStopped)
        this.#logger.warn(
          { err: this.#lastError },
          'realtime Redis subscriber connection lost; reconnecting',
        );
      this.#isListening = false;
      this.#events.onLost();
    });
  }

  stop(): void {
    this.#isStopped = true;
    this.#isListening = false;
    this.#connection?.disconnect();
  }

  async #subscribe(connection: RedisConnection): Promise<void> {
    try {
      await connection.subscribe(this.#channel);
    } catch (error) {
      // The connection dropped again (it will be 'ready' again), or the server refuses SUBSCRIBE.
      if (connection.status === 'ready')
        this.#logger.error({ err: error }, 'realtime Redis subscriber cannot subscribe');
      return;
    }
    if (this.#isStopped) return;
    this.#lastError = undefined;
    this.#isListening = true;
    this.#events.onListening();
  }
}
