import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseErrors } from '../errors/database-errors';
import { lockDataDir } from './data-dir-lock';
import { withExtendedQuerySessions } from './extended-query-sessions';

/** Where `embeddedPostgres()` keeps its files, and how many connections it must serve. */
export interface EmbeddedPostgresOptions {
  /** The data directory, created when missing (relative paths from the working directory). */
  readonly dataDir: string;
  /** The size of the pool that will connect (pg's `max`). Default: `10`, TypeORM's. */
  readonly poolSize?: number;
}

/** The connection options `DatabaseModule.forRoot` takes for a PostgreSQL server. */
export interface PostgresConnection {
  readonly type: 'postgres';
  readonly url: string;
  readonly poolSize: number;
}

/** A running embedded PostgreSQL: where to connect, and how to stop it. */
export interface EmbeddedPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  /** The absolute data directory. */
  readonly dataDir: string;
  /** What a startup log says about it. */
  readonly description: string;
  /** The options to spread into `DatabaseModule.forRoot({ ...database.options, entities })`. */
  readonly options: PostgresConnection;
  /** Stops the server, closes the database and releases the data directory; run it after the pool has closed. */
  stop(): Promise<void>;
}

const DEFAULT_POOL_SIZE = 10;
const PACKAGES = ['@electric-sql/pglite', '@electric-sql/pglite-socket'] as const;

/**
 * Starts PostgreSQL compiled to WebAssembly (PGlite) inside this process, serving the ordinary wire
 * protocol on a free port of 127.0.0.1, so TypeORM's `postgres` driver and its pool work unchanged on
 * a machine without a database server. The data stays in `dataDir` between runs; a pid file beside
 * it keeps a second process off the same files. PGlite and its socket server are optional peer
 * dependencies, loaded only here; when they are missing this throws `E_EMBEDDED_NOT_INSTALLED`.
 *
 * @example
 * const database = await embeddedPostgres({ dataDir: '.data/postgres' });
 * DatabaseModule.forRoot({ ...database.options, entities: [Order] }, { onClosed: () => database.stop() });
 */
export async function embeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const [{ PGlite }, { PGLiteSocketServer }] = await loadPackages();
  const dataDir = path.resolve(options.dataDir);
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  await mkdir(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  const db = await PGlite.create(dataDir).catch(async (error: unknown) => {
    await lock.release();
    throw error;
  });
  // The server refuses connections past maxConnections (default 1). The pool holds up to poolSize,
  // and a connection the pool has just dropped may still count for a moment: room for twice that.
  const server = new PGLiteSocketServer({
    db: withExtendedQuerySessions(db),
    host: '127.0.0.1',
    port: 0,
    maxConnections: 2 * poolSize,
  });
  await server.start().catch(async (error: unknown) => {
    await db.close();
    await lock.release();
    throw error;
  });
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  let stopped: Promise<void> | undefined;
  return {
    url,
    dataDir,
    description: `embedded PostgreSQL (PGlite), data in ${dataDir}`,
    options: { type: 'postgres', url, poolSize },
    stop() {
      stopped ??= (async () => {
        await server.stop();
        await db.close();
        await lock.release();
      })();
      return stopped;
    },
  };
}

// A deployment with DATABASE_URL never installs (or pays for) the WebAssembly build.
async function loadPackages() {
  const [pglite, socket] = await Promise.allSettled([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-socket'),
  ]);
  const missing = PACKAGES.filter((_name, index) => isNotFound([pglite, socket][index]));
  if (missing.length > 0) throw DatabaseErrors.embeddedNotInstalled(missing);
  if (pglite.status === 'rejected') throw pglite.reason;
  if (socket.status === 'rejected') throw socket.reason;
  return [pglite.value, socket.value] as const;
}

function isNotFound(outcome: PromiseSettledResult<unknown> | undefined): boolean {
  if (outcome?.status !== 'rejected') return false;
  const code = (outcome.reason as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
