import type { DataSource } from 'typeorm';

/** A pg client as pg-pool keeps it idle: its socket, which a retired connection has destroyed. */
interface PgIdleClient {
  readonly connection?: { readonly stream?: { destroy(): void } };
}

/** node-postgres's pool (`driver.master`): its idle list, and how it drops a client for good. */
interface PgPool {
  readonly _idle: readonly { readonly client: PgIdleClient }[];
  _remove(client: PgIdleClient): void;
}

/** mysql2's pool (`driver.pool`): its free connections, each of which leaves the pool as it is destroyed. */
interface MysqlPool {
  readonly _freeConnections: { toArray(): readonly { destroy(): void }[] };
}

/**
 * Closes the connections idle in `dataSource`'s pool now, so that none is handed out again, and
 * returns how many. An outage calls it: a connection that sat idle while the network or the server
 * went silent is dead without knowing it, and would cost a request `queryTimeoutMs` after the
 * database returns, once per connection. One that was fine costs one new connect. Connections in
 * use are left to their query's bound.
 *
 * @example
 * const outage = new DatabaseOutage(logger, 'postgres', { onStart: () => retireIdleConnections(dataSource) });
 */
export function retireIdleConnections(dataSource: DataSource): number {
  const driver = dataSource.driver as { master?: unknown; pool?: unknown } | undefined;
  const pg = driver?.master as Partial<PgPool> | undefined;
  if (Array.isArray(pg?._idle) && typeof pg._remove === 'function') {
    const idle = pg._idle.map((item) => item.client);
    for (const client of idle) {
      pg._remove(client);
      // pg's end() says goodbye and waits for the server to close, which a dead one never does.
      client.connection?.stream?.destroy();
    }
    return idle.length;
  }
  const mysql = driver?.pool as Partial<MysqlPool> | undefined;
  if (typeof mysql?._freeConnections?.toArray === 'function') {
    const idle = mysql._freeConnections.toArray();
    for (const connection of idle) connection.destroy();
    return idle.length;
  }
  return 0;
}
