import { Worker } from 'node:worker_threads';
import { DatabaseErrors } from '../errors/database-errors';
import { withExtendedQuerySessions } from '../embedded/extended-query-sessions';
import {
  serveInMemoryDatabases,
  type InMemoryAnswer,
  type InMemoryOperation,
  type InMemoryRequest,
  type InMemoryWorkerData,
} from './in-memory-worker';
import type { TestDatabaseCopy } from './server-test-databases';

const PACKAGES = ['@electric-sql/pglite', '@electric-sql/pglite-socket'] as const;

// Connections cost the single PGlite session little: room for a large pool, and one it just dropped.
const MAX_CONNECTIONS = 100;

// How long the worker, with its templates, outlives the last copy: the next test's boot reuses them.
const IDLE_MS = 2000;

type Pending = { resolve: (answer: InMemoryAnswer) => void; reject: (error: Error) => void };

/**
 * PGlite databases in memory, in a worker thread of this process: one template per schema,
 * migrated once, and a clone of it for each testing application, each behind a PostgreSQL
 * wire-protocol server of its own on 127.0.0.1. The worker stops a moment after the last clone is
 * closed, and never keeps the process alive while it waits.
 */
class InMemoryDatabases {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly #templates = new Map<string, Promise<number>>();
  #lastRequest = 0;
  #copies = 0;
  #idle: NodeJS.Timeout | undefined;
  #isStopped = false;

  constructor(workerData: InMemoryWorkerData) {
    const source = `(${serveInMemoryDatabases.toString()})(${withExtendedQuerySessions.toString()});`;
    this.#worker = new Worker(source, { eval: true, workerData });
    this.#worker.unref();
    const fail = (error: Error) => {
      this.#isStopped = true;
      for (const { reject } of this.#pending.values()) reject(error);
      this.#pending.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`the in-memory database worker exited (${code})`)));
    this.#worker.on('message', (answer: InMemoryAnswer) => {
      const pending = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if ('error' in answer) pending?.reject(new Error(answer.error));
      else pending?.resolve(answer);
    });
  }

  get isStopped(): boolean {
    return this.#isStopped;
  }

  async copyOf(key: string, migrate: (templateUrl: string) => Promise<void>): Promise<TestDatabaseCopy> {
    clearTimeout(this.#idle);
    this.#copies++;
    try {
      let template = this.#templates.get(key);
      if (!template) {
        template = this.#createTemplate(migrate);
        this.#templates.set(key, template);
        template.catch(() => this.#templates.delete(key));
      }
      const copy = await this.#ask({ op: 'clone', of: await template });
      if (!('port' in copy)) throw new Error('the in-memory database worker gave no port');
      let dropped: Promise<void> | undefined;
      return {
        url: urlOf(copy.port),
        drop: () => (dropped ??= this.#close(copy.database)),
      };
    } catch (error) {
      this.#released();
      throw error;
    }
  }

  async #createTemplate(migrate: (templateUrl: string) => Promise<void>): Promise<number> {
    const created = await this.#ask({ op: 'create' });
    if (!('port' in created)) throw new Error('the in-memory database worker gave no port');
    await migrate(urlOf(created.port));
    return created.database;
  }

  async #close(database: number): Promise<void> {
    try {
      await this.#ask({ op: 'close', database });
    } finally {
      this.#released();
    }
  }

  #released(): void {
    if (--this.#copies > 0) return;
    this.#idle = setTimeout(() => {
      this.#isStopped = true;
      void this.#worker.terminate();
    }, IDLE_MS).unref();
  }

  #ask(operation: InMemoryOperation): Promise<InMemoryAnswer> {
    const id = ++this.#lastRequest;
    // Referenced only while it has work for this thread: a script awaiting a database stays alive.
    this.#worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...operation, id } satisfies InMemoryRequest);
    });
  }
}

let shared: InMemoryDatabases | undefined;

/**
 * A database in memory for one testing application, cloned from the template of the schema `key`
 * names, which `migrate` fills once. Throws `E_EMBEDDED_NOT_INSTALLED` without PGlite.
 *
 * @example
 * const copy = await copyInMemory(key, (url) => migrateTemplate({ ...options, url }));
 */
export function copyInMemory(
  key: string,
  migrate: (templateUrl: string) => Promise<void>,
): Promise<TestDatabaseCopy> {
  if (!shared || shared.isStopped) shared = new InMemoryDatabases(locatePackages());
  return shared.copyOf(key, migrate);
}

// The worker loads PGlite by absolute path, resolved here, where the application's packages are.
function locatePackages(): InMemoryWorkerData {
  const [pglite, socket] = PACKAGES.map(resolvePackage);
  if (pglite === undefined || socket === undefined)
    throw DatabaseErrors.embeddedNotInstalled(PACKAGES.filter((name) => !resolvePackage(name)));
  return { pglite, socket, maxConnections: MAX_CONNECTIONS };
}

function resolvePackage(name: string): string | undefined {
  try {
    return require.resolve(name);
  } catch {
    return undefined;
  }
}

function urlOf(port: number): string {
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}
