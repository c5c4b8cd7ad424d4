import { mkdir } from 'node:fs/promises';
import { lockDataDir } from './data-dir-lock';
import type { DatabaseTarget } from './database-target';

/**
 * Starts PostgreSQL compiled to WebAssembly (PGlite) inside this process, serving the ordinary
 * wire protocol on a free port of 127.0.0.1, so TypeORM's `postgres` driver and its pool work
 * unchanged and a machine without a database server still runs the application. The data stays
 * in `dataDir` between runs. Stopped by the application's shutdown, after the pool has closed.
 */
export async function startEmbeddedPostgres(dataDir: string, poolSize: number): Promise<DatabaseTarget> {
  // Loaded only here: a deployment with DATABASE_URL never pays for the WebAssembly build.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  await mkdir(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  const db = await PGlite.create(dataDir).catch(async (error: unknown) => {
    await lock.release();
    throw error;
  });
  // The server refuses connections past maxConnections (default 1). The pool holds up to poolSize,
  // and a connection the pool has just dropped may still count for a moment: room for twice that.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 2 * poolSize });
  await server.start().catch(async (error: unknown) => {
    await db.close();
    await lock.release();
    throw error;
  });
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    description: `embedded PostgreSQL (PGlite), data in ${dataDir}`,
    async onApplicationShutdown() {
      await server.stop();
      await db.close();
      await lock.release();
    },
  };
}
