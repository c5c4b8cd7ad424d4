import type { DataSource } from 'typeorm';
import { loadFlexible, type BudgetStore } from './budget-store';

/** The table every replica's budgets live in, one row per key. */
export const BUDGET_TABLE = 'keel_rate_limits';

// rate-limiter-flexible's own layout, so that its queries find what they expect.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "${BUDGET_TABLE}" (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
)`;

// Two replicas creating the table at the same moment: one of them meets the other's row in the
// catalogue (unique_violation) or its table (duplicate_table). Either way the table is there.
const CREATED_BY_ANOTHER = new Set(['23505', '42P07']);

/** What rate-limiter-flexible sends: a statement's name, its text and its values. */
interface FlexibleQuery {
  readonly name?: string;
  readonly text: string;
  readonly values?: readonly unknown[];
}

/** node-postgres's pool, as TypeORM's postgres driver holds it (`driver.master`). */
interface PgPool {
  query(query: { text: string; values?: readonly unknown[] }): Promise<unknown>;
}

// The pool as rate-limiter-flexible's `'pool'` client, sending its statements unnamed. It names
// them (`keel_rate_limits:rlflx-upsert`), and pg prepares a named statement once per connection; the
// embedded database serves every connection from one PGlite session, where the second connection
// to prepare the name fails with `prepared statement ... already exists`.
function unnamedStatements(dataSource: DataSource): { query(query: FlexibleQuery): Promise<unknown> } {
  return {
    query: ({ text, values }) => {
      const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
      if (!pool) return Promise.reject(new Error('the database is not connected yet'));
      return pool.query({ text, values });
    },
  };
}

/**
 * Budgets in the application's own PostgreSQL (the embedded database included), through its
 * `DataSource`'s pool, in a table keel creates when the first limited request finds the database
 * connected: every replica on the same database shares them. Until the database is connected, a
 * call fails, as a store that is down does.
 *
 * @example
 * postgresStore(dataSource).limiter({ keyPrefix: 'keel:OrderController.store', limit: 5, windowS: 60 });
 */
export function postgresStore(dataSource: DataSource): BudgetStore {
  const { RateLimiterPostgres } = loadFlexible();
  let isCreated = false;
  let creating: Promise<void> | undefined;
  const createTable = (): Promise<void> => {
    if (!dataSource.isInitialized) return Promise.reject(new Error('the database is not connected yet'));
    creating ??= dataSource.query(CREATE_TABLE).then(
      () => void (isCreated = true),
      (error: unknown) => {
        creating = undefined;
        if (!CREATED_BY_ANOTHER.has((error as { code?: unknown }).code as string)) throw error;
        isCreated = true;
      },
    );
    return creating;
  };
  let isFirst = true;
  return {
    name: 'postgres',
    isRemote: true,
    limiter: ({ keyPrefix, limit, windowS }) => {
      const limiter = new RateLimiterPostgres({
        storeClient: unnamedStatements(dataSource),
        storeType: 'pool',
        tableName: BUDGET_TABLE,
        tableCreated: true,
        keyPrefix,
        points: limit,
        duration: windowS,
        // One sweep of expired rows is enough for the whole table, not one per budget.
        clearExpiredByTimeout: isFirst,
      });
      isFirst = false;
      return {
        consume: (key) => (isCreated ? limiter.consume(key) : createTable().then(() => limiter.consume(key))),
      };
    },
  };
}
