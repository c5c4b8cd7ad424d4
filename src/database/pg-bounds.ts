import type { Client as PgClient } from 'pg';
import { boundCallback, type QueryBound, type QueryCallback } from './query-bound';
import { isSchemaWork } from '../orm/schema-work';

type PgModule = { readonly Client: typeof PgClient };
type Connect = (callback?: (error: Error | undefined) => void) => Promise<void> | undefined;
type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * pg's `Client` with every query bounded by `bound.timeoutMs`: a query that gets no answer in time
 * fails with `QueryTimeoutError` and its connection is ended (pg destroys the socket of a client
 * with a query still active), so pg-pool drops it instead of handing out a connection stuck behind
 * a query that will never be answered. Given to pg-pool as its `Client` option.
 *
 * Query objects with a `submit` method (pg-query-stream, pg-cursor) read for as long as their
 * caller wants, and schema work ({@link runSchemaWork}) may take as long as it needs: both are left
 * unbounded, and schema work's connection has `statement_timeout` lifted until a bounded query
 * uses it again.
 *
 * @example
 * new Pool({ ...options, Client: boundedPgClient(pg, { timeoutMs: 5000, outage }) });
 */
export function boundedPgClient(pg: PgModule, bound: QueryBound): typeof PgClient {
  const query = pg.Client.prototype.query as Query;
  const connect = pg.Client.prototype.connect as Connect;

  class BoundedClient extends pg.Client {}

  // Connections whose session has `statement_timeout` lifted for schema work; the first bounded
  // query after it restores the value the connection started with.
  const lifted = new WeakSet<PgClient>();
  const send = (client: PgClient, text: string): void =>
    void (query.call(client, text) as Promise<unknown>).catch(() => undefined);

  Object.defineProperties(BoundedClient.prototype, {
    query: {
      value: function boundedQuery(this: PgClient, config: unknown, values?: unknown, callback?: unknown) {
        if (isSchemaWork() && !lifted.has(this)) {
          lifted.add(this);
          send(this, 'SET statement_timeout = 0');
        } else if (!isSchemaWork() && lifted.has(this)) {
          lifted.delete(this);
          send(this, 'RESET statement_timeout');
        }
        if (isSubmittable(config) || isSchemaWork()) return query.call(this, config, values, callback);
        const given = (typeof values === 'function' ? values : callback) as QueryCallback | undefined;
        const args = typeof values === 'function' ? [] : [values];
        const abandon = (): void => void this.end().catch(() => undefined);
        if (given) return query.call(this, config, ...args, boundCallback(given, bound, abandon));
        return new Promise((resolve, reject) => {
          const settle: QueryCallback = (error, result) => (error ? reject(error) : resolve(result));
          query.call(this, config, ...args, boundCallback(settle, bound, abandon));
        });
      },
    },
    connect: {
      value: function observedConnect(this: PgClient, callback?: (error: Error | undefined) => void) {
        const observed = (error: Error | undefined): void => {
          if (error) bound.outage.observe(error);
          callback?.(error);
        };
        if (callback) return connect.call(this, observed);
        return (connect.call(this) as Promise<void>).catch((error: unknown) => {
          bound.outage.observe(error);
          throw error;
        });
      },
    },
  });
  return BoundedClient;
}

function isSubmittable(config: unknown): boolean {
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof (config as { submit?: unknown }).submit === 'function'
  );
}
