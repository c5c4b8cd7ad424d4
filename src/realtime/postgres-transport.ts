import type { ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import type { Logger } from '../logging/logger';
import type { ChannelEvent } from './channel-hub';
import { NOTIFY_CHANNEL, PgListener } from './pg-listener';
import type { LocalSubscribers, RealtimeTransport, TransportSettings } from './realtime-transport';

// Pruned this often (by every replica: a DELETE that finds nothing costs an index probe).
const PRUNE_EVERY_MS = 30_000;
const RECENT_IDS = 10_000;
const POLL_EVERY_MS = 1000;
const POLL_MARGIN = 32n;
// The id goes out as text (a bigint past 2^53 would lose digits as a JavaScript number): ORDER BY
// must name the table's column, as `ORDER BY id` would sort by this text ('10' before '9'), and a
// stream, which drops an id lower than one it sent, would lose every event that came after a longer id.
const COLUMNS = 'id::text AS id, channel, event, data';
const BY_ID = 'ORDER BY keel_realtime_events.id';

/**
 * Events through the application's PostgreSQL: each event is stored (table `keel_realtime_events`,
 * migration `RealtimeTables1764633600000`) with an increasing id, and a `NOTIFY` carrying only its id
 * wakes every replica's `LISTEN`, which fetches it and delivers it to its own subscribers.
 *
 * @example
 * const transport = new PostgresTransport(dataSource, { replayWindowMs: 120_000 }, logger);
 */
export class PostgresTransport implements RealtimeTransport {
  readonly #dataSource: DataSource;
  readonly #settings: TransportSettings;
  readonly #listener: PgListener;
  #subscribers: LocalSubscribers | undefined;
  // The highest id this replica has delivered: where a reconnected listener catches up from.
  #lastId: bigint | undefined;
  #pruner: NodeJS.Timeout | undefined;
  #poller: NodeJS.Timeout | undefined;
  #catchingUp: Promise<void> = Promise.resolve();
  #isCatchUpQueued = false;
  // The ids delivered lately: a notification and a catch-up may both name one.
  readonly #delivered = new Set<string>();

  constructor(dataSource: DataSource, settings: TransportSettings, logger: Logger) {
    this.#dataSource = dataSource;
    this.#settings = settings;
    this.#listener = new PgListener(() => clientConfigOf(dataSource), logger, {
      // A notification only wakes the replica: it reads everything after what it delivered, so
      // that an event whose fetch failed (the pool not connected yet) is never overtaken by a later one.
      onIds: () => this.#catchUp(),
      onListening: () => this.#catchUp(),
    });
  }

  get isListening(): boolean {
    return this.#listener.isListening;
  }

  async start(subscribers: LocalSubscribers): Promise<void> {
    this.#subscribers = subscribers;
    // Read before any client can subscribe: whatever is published from here on, before the
    // listener is up included, reaches the subscribers through the first catch-up.
    this.#lastId = await this.#listener.highestId();
    this.#listener.start();
    this.#pruner = setInterval(() => void this.#prune(), PRUNE_EVERY_MS);
    this.#pruner.unref();
    // A safety net under NOTIFY: a notification lost with a dropped connection, or a server that
    // does not pass them between connections (the embedded PGlite), delays an event, never loses it.
    // The margin takes in an event of another channel that committed after a higher id was seen.
    this.#poller = setInterval(() => this.#catchUp(), POLL_EVERY_MS);
    this.#poller.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#pruner);
    clearInterval(this.#poller);
    await this.#listener.stop();
  }

  async publish(channel: string, event: string, data: unknown): Promise<string> {
    // One writer per channel at a time: ids commit in the order they were given, so a replay
    // "after id N" never skips an event that committed late. One statement, its own transaction:
    // the lock is held inside the server only, never across a round trip to a busy replica, which
    // would bound a channel's rate, on all replicas together, by that replica's event-loop lag.
    const rows = (await this.#dataSource.query(
      `WITH locked AS (SELECT pg_advisory_xact_lock(hashtext($1))),
       stored AS (INSERT INTO keel_realtime_events (channel, event, data) SELECT $2, $3, $4::jsonb FROM locked RETURNING id)
       SELECT id::text AS id, pg_notify('${NOTIFY_CHANNEL}', id::text) FROM stored`,
      [`keel_realtime:${channel}`, channel, event, JSON.stringify(data ?? null)],
    )) as { id: string }[];
    return rows[0]?.id ?? '';
  }

  async replay(channel: string, after: bigint): Promise<ChannelEvent[]> {
    return (await this.#dataSource.query(
      `SELECT ${COLUMNS} FROM keel_realtime_events
       WHERE channel = $1 AND id > $2 AND created_at > now() - make_interval(secs => $3)
       ${BY_ID}`,
      [channel, String(after), this.#settings.replayWindowMs / 1000],
    )) as ChannelEvent[];
  }

  // One query at a time, and one waiting at most, whatever the number of wakes: a burst of
  // notifications costs a query or two. Events of a channel commit in id order (publish's lock),
  // so a channel's events are delivered in order; the margin takes in an event of another channel
  // that committed after a higher id was seen (delivered once: the recent ids are remembered).
  #catchUp(): void {
    if (this.#isCatchUpQueued || this.#lastId === undefined) return;
    this.#isCatchUpQueued = true;
    this.#catchingUp = this.#catchingUp.then(async () => {
      this.#isCatchUpQueued = false;
      const after = String((this.#lastId ?? 0n) - POLL_MARGIN);
      const rows = (await this.#dataSource
        .query(`SELECT ${COLUMNS} FROM keel_realtime_events WHERE id > $1 ${BY_ID}`, [after])
        .catch(() => [])) as ChannelEvent[];
      for (const row of rows) {
        const id = BigInt(row.id);
        if (this.#lastId === undefined || id > this.#lastId) this.#lastId = id;
        if (this.#delivered.has(row.id)) continue;
        this.#delivered.add(row.id);
        if (this.#delivered.size > RECENT_IDS)
          this.#delivered.delete(this.#delivered.values().next().value ?? '');
        this.#subscribers?.deliver(row);
      }
    });
  }

  async #prune(): Promise<void> {
    await this.#dataSource
      .query('DELETE FROM keel_realtime_events WHERE created_at < now() - make_interval(secs => $1)', [
        this.#settings.replayWindowMs / 1000,
      ])
      .catch(() => undefined);
  }
}

// The LISTEN connection goes where the DataSource's pool does.
function clientConfigOf(dataSource: DataSource): ClientConfig {
  const options = dataSource.options as {
    url?: string;
    host?: string;
    port?: number;
    username?: string;
    password?: string | (() => string | Promise<string>);
    database?: string;
    ssl?: ClientConfig['ssl'];
  };
  return {
    connectionString: options.url,
    host: options.host,
    port: options.port,
    user: options.username,
    password: options.password,
    database: options.database,
    ssl: options.ssl,
  };
}
