import { createHash } from 'node:crypto';
import type { DataSourceOptions, QueryRunner } from 'typeorm';
import { breakConnection } from '../orm/connection-breaker';

/**
 * How one dialect holds the lock that migrations run under, on the connection that runs them: a
 * lock of the session, so that a process that dies while holding it releases it with its connection.
 */
export interface MigrationLock {
  /** Waits at most `waitMs` for the lock; resolves whether it was taken. */
  tryAcquire(runner: QueryRunner, name: string, waitMs: number): Promise<boolean>;
  release(runner: QueryRunner, name: string): Promise<void>;
  /** Undoes what waiting for the lock set on the connection, before the migrations run on it. */
  afterAcquire(runner: QueryRunner): Promise<void>;
  /** Closes the connection rather than returning it to the pool, with whatever it still held. */
  discard(runner: QueryRunner): Promise<void>;
}

// PostgreSQL's SQLSTATE for a lock not taken within lock_timeout.
const LOCK_NOT_AVAILABLE = '55P03';

const postgresLock: MigrationLock = {
  async tryAcquire(runner, name, waitMs) {
    // Waiting in the server, rather than polling pg_try_advisory_lock, hands the lock over the
    // moment it is released; lock_timeout keeps each wait under the query bound.
    await runner.query(`SELECT set_config('lock_timeout', $1, false)`, [`${waitMs}ms`]);
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [advisoryKey(name)]);
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return false;
      throw error;
    }
  },
  async release(runner, name) {
    await runner.query('SELECT pg_advisory_unlock($1)', [advisoryKey(name)]);
  },
  async afterAcquire(runner) {
    // The migrations' own statements may wait for a table's lock as long as they need.
    await runner.query(`SELECT set_config('lock_timeout', '0', false)`);
  },
  async discard(runner) {
    breakConnection(runner, new Error('the migrations connection is not reused'));
  },
};

const mysqlLock: MigrationLock = {
  async tryAcquire(runner, name, waitMs) {
    const [row] = (await runner.query('SELECT GET_LOCK(?, ?) AS acquired', [name, waitMs / 1000])) as {
      acquired: unknown;
    }[];
    // 1: taken; 0: still held elsewhere after waitMs; NULL: the server failed to take it. MariaDB
    // waits fractions of a second; MySQL may round them, which the default wait (1 s) never has.
    if (row?.acquired === null || row?.acquired === undefined) throw new Error(`GET_LOCK('${name}') failed`);
    return Number(row.acquired) === 1;
  },
  async release(runner, name) {
    await runner.query('SELECT RELEASE_LOCK(?)', [name]);
  },
  async afterAcquire() {},
  async discard(runner) {
    // mysql2 takes a destroyed connection out of its pool; releasing it afterwards is a no-op.
    const { databaseConnection } = runner as unknown as { databaseConnection?: { destroy(): void } };
    databaseConnection?.destroy();
    await runner.release();
  },
};

// The dialects keel locks for; the others run their migrations as TypeORM does, unlocked.
const MIGRATION_LOCKS: Partial<Record<DataSourceOptions['type'], MigrationLock>> = {
  postgres: postgresLock,
  mysql: mysqlLock,
  mariadb: mysqlLock,
};

/** The migration lock of `type`'s dialect, if keel has one. @example const lock = migrationLockOf('postgres') */
export function migrationLockOf(type: DataSourceOptions['type']): MigrationLock | undefined {
  return MIGRATION_LOCKS[type];
}

/**
 * The lock's name for the migrations recorded in `table` of `database`: every process migrating the
 * same database contends for it, and no other. MySQL's lock names are server-wide and at most 64
 * characters, hence the digest.
 *
 * @example
 * migrationLockName('orders', 'migrations') // 'keel_migrations_3f0c…'
 */
export function migrationLockName(database: string, table: string): string {
  const digest = createHash('sha256').update(`${database}\0${table}`).digest('hex');
  return `keel_migrations_${digest.slice(0, 40)}`;
}

// pg_advisory_lock takes a bigint: the name's first 64 bits, signed.
function advisoryKey(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex').slice(0, 16);
  return BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();
}
