import type { DataSourceOptions } from 'typeorm';
import type { DatabaseRedirect } from '../database/database-redirect';
import { copyInMemory } from './in-memory-test-databases';
import { migrateTemplate } from './migrate-template';
import { schemaKey } from './schema-key';
import { copyOnServer, type TestDatabaseCopy } from './server-test-databases';
import { TestingErrors } from '../errors/testing-errors';

/** Where `withTestDatabase` makes the database. */
export interface TestDatabaseOptions {
  /**
   * The PostgreSQL server (`postgres://user:password@host:5432/database`; the database named is
   * where keel connects to create the others), or `'memory://'` for the embedded database in
   * memory. Default: `DATABASE_URL`, else `'memory://'`.
   */
  readonly url?: string;
}

const IN_MEMORY = 'memory://';

/**
 * The database of one testing application: a copy of its schema's template, made as the
 * application's `DataSource` is (on the options the application gives, only the connection
 * replaced), and dropped once that `DataSource` is closed.
 */
export class TestDatabase implements DatabaseRedirect {
  readonly #server: string;
  #copy: TestDatabaseCopy | undefined;

  constructor({ url }: TestDatabaseOptions) {
    this.#server = url ?? (process.env.DATABASE_URL?.trim() || IN_MEMORY);
    if (this.#server !== IN_MEMORY && !/^postgres(ql)?:\/\//.test(this.#server))
      throw TestingErrors.invalidTestDatabaseUrl(this.#server);
  }

  /** True once the application's `DataSource` was made on this database. */
  get isRedirected(): boolean {
    return this.#copy !== undefined;
  }

  async redirect(options: DataSourceOptions): Promise<DataSourceOptions> {
    if (options.type !== 'postgres') throw TestingErrors.testDatabaseNotPostgres(options.type);
    const key = await schemaKey(options);
    const migrate = (url: string) => migrateTemplate(connectedTo(options, url));
    this.#copy =
      this.#server === IN_MEMORY
        ? await copyInMemory(key, migrate)
        : await copyOnServer(this.#server, key, migrate);
    return connectedTo(options, this.#copy.url);
  }

  async release(): Promise<void> {
    const copy = this.#copy;
    this.#copy = undefined;
    await copy?.drop();
  }
}

// What says where to connect besides the URL: each would override what the URL says.
const CONNECTION_OPTIONS = new Set(['host', 'port', 'username', 'password', 'database', 'replication']);

// The application's options with only the connection replaced.
function connectedTo(options: DataSourceOptions, url: string): DataSourceOptions {
  const kept = Object.entries(options).filter(([name]) => !CONNECTION_OPTIONS.has(name));
  return { ...Object.fromEntries(kept), url } as DataSourceOptions;
}
