import type { ClientConfig, Client, Notification } from 'pg';
import type { Logger } from '../logging/logger';

/** What the listening connection reports. */
export interface ListenerEvents {
  /** Ids a `NOTIFY` named. */
  onIds(ids: readonly string[]): void;
  /** The connection is (again) listening: events published while it was not must be caught up. */
  onListening(): void;
}

const CHANNEL = 'keel_realtime';
const RETRY_MS = [100, 250, 500, 1000, 2000];

/**
 * One dedicated PostgreSQL connection, outside the pool, that `LISTEN`s for the ids of new events;
 * reconnected (with a capped backoff) whenever it drops, for as long as it is not stopped.
 *
 * @example
 * const listener = new PgListener(() => config, logger, { onIds, onListening });
 * listener.start();
 */
export class PgListener {
  readonly #config: () => ClientConfig;
  readonly #logger: Logger;
  readonly #events: ListenerEvents;
  #client: Client | undefined;
  #attempt = 0;
  #isStopped = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(config: () => ClientConfig, logger: Logger, events: ListenerEvents) {
    this.#config = config;
    this.#logger = logger;
    this.#events = events;
  }

  /** Whether the connection is listening now. */
  get isListening(): boolean {
    return this.#client !== undefined;
  }

  start(): void {
    void this.#connect();
  }

  async stop(): Promise<void> {
    this.#isStopped = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  /**
   * The highest event id stored now, read on a connection of its own before the application
   * serves: events after it are caught up once the listener is up. 0 when it cannot be read (no
   * table yet, or no database yet): the catch-up then takes the whole replay window.
   */
  async highestId(): Promise<bigint> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- pg, as TypeORM loads it for PostgreSQL
    const { Client: PgClient } = require('pg') as typeof import('pg');
    const client = new PgClient({ ...this.#config(), connectionTimeoutMillis: 3000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ id: string }>(
        'SELECT coalesce(max(id), 0)::text AS id FROM keel_realtime_events',
      );
      return BigInt(rows[0]?.id ?? '0');
    } catch {
      return 0n;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async #connect(): Promise<void> {
    if (this.#isStopped) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- pg, as TypeORM loads it for PostgreSQL
    const { Client: PgClient } = require('pg') as typeof import('pg');
    const client = new PgClient(this.#config());
    let isDropped = false;
    const drop = (error?: unknown) => {
      if (isDropped) return;
      isDropped = true;
      if (this.#client === client) this.#client = undefined;
      client.end().catch(() => undefined);
      if (this.#isStopped) return;
      const delay = RETRY_MS[Math.min(this.#attempt++, RETRY_MS.length - 1)] ?? 2000;
      this.#logger.warn({ err: error, retryInMs: delay }, 'realtime LISTEN connection lost; reconnecting');
      this.#retry = setTimeout(() => void this.#connect(), delay);
      this.#retry.unref();
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', (message: Notification) => {
      if (message.channel === CHANNEL && message.payload) this.#events.onIds(message.payload.split(','));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      return drop(error);
    }
    if (this.#isStopped) return void client.end().catch(() => undefined);
    this.#attempt = 0;
    this.#client = client;
    this.#events.onListening();
  }
}

/** The channel `NOTIFY` speaks on. @internal */
export const NOTIFY_CHANNEL = CHANNEL;
