import type { DataSource } from 'typeorm';

/** A database server the application starts itself (the embedded one): where to connect, and how to stop it. */
export interface DatabaseServer {
  /** Merged into the `DataSource`'s options before it connects. */
  readonly options: { readonly url: string };
  /** Stops the server; runs once the pool has closed. */
  stop(): Promise<void>;
}

/** Starts the server a `DataSource` connects to. */
export type DatabaseServerStart = () => Promise<DatabaseServer>;

// Keyed by the DataSource, as its migrations are: whoever connects it (the background connector,
// readiness, a command) starts the one server first, and shutdown stops it.
const servers = new WeakMap<DataSource, ServerOfDataSource>();

class ServerOfDataSource {
  readonly #start: DatabaseServerStart;
  #started: Promise<DatabaseServer> | undefined;

  constructor(start: DatabaseServerStart) {
    this.#start = start;
  }

  start(dataSource: DataSource): Promise<DatabaseServer> {
    this.#started ??= this.#start().then(
      (server) => {
        const { url } = server.options;
        // The driver read the database's name when the DataSource was made, before there was a URL.
        const database = decodeURIComponent(new URL(url).pathname.slice(1)) || undefined;
        dataSource.setOptions({ url, ...(database ? { database } : {}) });
        return server;
      },
      (error: unknown) => {
        // A start that failed (the data directory in use) is tried again by the next attempt.
        this.#started = undefined;
        throw error;
      },
    );
    return this.#started;
  }

  async stop(): Promise<void> {
    const started = this.#started;
    this.#started = undefined;
    const server = await started?.catch(() => undefined);
    await server?.stop();
  }
}

/**
 * Makes `dataSource` start its server (`start`) the first time it connects, and not before: an
 * application that runs a command such as `routes` never starts it, nor holds its data directory.
 *
 * @example
 * startServerOnConnect(dataSource, () => embeddedPostgres({ dataDir: '.data/postgres' }));
 */
export function startServerOnConnect(dataSource: DataSource, start: DatabaseServerStart): void {
  servers.set(dataSource, new ServerOfDataSource(start));
}

/** Starts the server `dataSource` connects to, if it has one and it is not running. @example await startDatabaseServer(dataSource) */
export async function startDatabaseServer(dataSource: DataSource): Promise<void> {
  await servers.get(dataSource)?.start(dataSource);
}

/** Stops the server `dataSource` connected to, if one was started. @example await stopDatabaseServer(dataSource) */
export async function stopDatabaseServer(dataSource: DataSource): Promise<void> {
  await servers.get(dataSource)?.stop();
}

/**
 * Whether the application runs the server `dataSource` connects to itself (the embedded database,
 * which serves one transaction at a time: while one is open, every other connection waits).
 * @example if (hasDatabaseServer(dataSource)) return failFast();
 */
export function hasDatabaseServer(dataSource: DataSource): boolean {
  return servers.has(dataSource);
}
