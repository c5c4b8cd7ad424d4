/** What the main thread asks of the worker that holds the in-memory databases. */
export type InMemoryOperation =
  | { readonly op: 'create' }
  | { readonly op: 'clone'; readonly of: number }
  | { readonly op: 'close'; readonly database: number };

/** An operation, and the `id` its answer carries. */
export type InMemoryRequest = InMemoryOperation & { readonly id: number };

/** The worker's answer to the request of the same `id`. */
export type InMemoryAnswer =
  | { readonly id: number; readonly database: number; readonly port: number }
  | { readonly id: number; readonly closed: true }
  | { readonly id: number; readonly error: string };

/** What the worker is started with: where PGlite is, and how many connections each server takes. */
export interface InMemoryWorkerData {
  readonly pglite: string;
  readonly socket: string;
  readonly maxConnections: number;
}

/**
 * The body of the worker thread that runs PGlite, each database in memory behind a PostgreSQL
 * wire-protocol server of its own. PGlite loads its WebAssembly through dynamic imports, which a
 * test runner's sandbox (Jest's VM contexts) refuses: a worker thread is plain Node. Its source is
 * what the worker runs, so it refers to nothing outside itself but `withExtendedQuerySessions`,
 * whose source runs beside it.
 */
export function serveInMemoryDatabases(
  withExtendedQuerySessions: <Database>(db: Database) => Database,
): void {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded in the worker, by absolute path */
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const data = workerData as InMemoryWorkerData;
  const { PGlite } = require(data.pglite) as typeof import('@electric-sql/pglite');
  const { PGLiteSocketServer } = require(data.socket) as typeof import('@electric-sql/pglite-socket');
  /* eslint-enable @typescript-eslint/no-require-imports */
  type Database = InstanceType<typeof PGlite>;
  const databases = new Map<number, { db: Database; server: InstanceType<typeof PGLiteSocketServer> }>();
  let lastDatabase = 0;

  const serve = async (db: Database): Promise<{ database: number; port: number }> => {
    const server = new PGLiteSocketServer({
      db: withExtendedQuerySessions(db),
      host: '127.0.0.1',
      port: 0,
      maxConnections: data.maxConnections,
    });
    await server.start();
    const database = ++lastDatabase;
    databases.set(database, { db, server });
    return { database, port: Number(server.getServerConn().split(':').pop()) };
  };

  const answer = async (request: InMemoryRequest): Promise<InMemoryAnswer> => {
    if (request.op === 'create') return { id: request.id, ...(await serve(await PGlite.create())) };
    if (request.op === 'clone') {
      const source = databases.get(request.of);
      if (!source) throw new Error(`no in-memory database ${request.of}`);
      return { id: request.id, ...(await serve((await source.db.clone()) as Database)) };
    }
    const served = databases.get(request.database);
    databases.delete(request.database);
    await served?.server.stop();
    await served?.db.close();
    return { id: request.id, closed: true };
  };

  parentPort?.on('message', (request: InMemoryRequest) => {
    answer(request).then(
      (message) => parentPort.postMessage(message),
      (error: unknown) =>
        parentPort.postMessage({
          id: request.id,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  });
}
