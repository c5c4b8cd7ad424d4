import type { DataSource as TypeOrmDataSource, DataSourceOptions } from 'typeorm';
import { checkMilliseconds } from '../lifecycle/option-checks';
import type { DynamicModule } from '../container/module-definition';
import { optionsProvider, type OptionsFactory } from '../container/options-factory';
import { InjectionToken, type Class } from '../container/token';
import { Module } from '../decorators/module';
import { ApplicationStatus } from '../lifecycle/application-status';
import { LoadMonitor } from '../http/load-monitor';
import { LOGGER, type Logger } from '../logging/logger';
import { withConnectTimeout } from './connect-timeouts';
import { connectedRepository } from './connected-repository';
import { DatabaseConnector, type ConnectSettings } from './database-connector';
import { retireIdleConnections } from './idle-connections';
import { DatabaseOutage } from './database-outage';
import { DATABASE_REDIRECT, type DatabaseRedirect } from './database-redirect';
import { startServerOnConnect, type DatabaseServerStart } from './database-server';
import { repositoryToken } from './inject-repository';
import { migrateOnConnect } from '../migrations/migrations-on-connect';
import { withQueryBounds } from './query-bounds';
import { loadTypeOrm } from '../orm/typeorm';

// How long one wait for the migration lock may last at most.
const MAX_LOCK_WAIT_MS = 1000;

/**
 * What a factory gives `DatabaseModule.forRoot`: TypeORM's options, and the `server` to start on
 * connecting where the configuration asks for one (it replaces the connect options' `server`).
 */
export type DatabaseFactoryOptions = DataSourceOptions & Pick<DatabaseConnectOptions, 'server'>;

/**
 * TypeORM's options; a function that returns (or resolves to) them at boot; or a factory with the
 * providers it needs (`{ inject: [Env], useFactory: (env: Env) => options }`).
 */
export type DatabaseOptionsSource =
  | DataSourceOptions
  | (() => DataSourceOptions | Promise<DataSourceOptions>)
  | OptionsFactory<DatabaseFactoryOptions>;

// The options the factory made, inside DatabaseModule only.
const DATABASE_OPTIONS = new InjectionToken<DatabaseFactoryOptions>('DatabaseModule options');

/** How `DatabaseModule` connects and retries; every option is optional. */
export interface DatabaseConnectOptions {
  /**
   * How long one attempt may spend connecting (opening the pool, reading the server's version)
   * before it is abandoned and retried: a server that accepts the login and then never answers
   * would otherwise hold the attempt forever. Migrations are not bounded by it. Default: `10000`.
   */
  attemptTimeoutMs?: number;
  /** The delay after the first failure, doubled after each one. Default: `250`. */
  initialDelayMs?: number;
  /** The longest delay between two attempts. Default: `30000`. */
  maxDelayMs?: number;
  /** Runs at shutdown once the pool is closed (and the `server` stopped). */
  onClosed?: () => unknown;
  /**
   * Starts the server to connect to when the application first connects, never before (a command
   * such as `routes` starts nothing); its URL replaces the options' one, and it stops once the pool
   * has closed. @example { server: () => embeddedPostgres({ dataDir: '.data/postgres' }) }
   */
  server?: DatabaseServerStart;
  /**
   * How long a query may wait for the database's answer (PostgreSQL, the embedded database, MySQL,
   * MariaDB). Past it the query fails, the request answers 503 `database unavailable`, and its
   * connection is closed rather than returned to the pool, so a database that stopped answering
   * never leaves the pool stuck. PostgreSQL also gets it as `statement_timeout`. Default: `5000`.
   */
  queryTimeoutMs?: number;
}

/** {@link DatabaseConnectOptions} with the defaults filled in. */
interface ResolvedConnectOptions extends ConnectSettings {
  readonly queryTimeoutMs: number;
}

/**
 * Provides a TypeORM `DataSource` (`forRoot`, global) and entities' repositories (`forFeature`).
 * The `DataSource` never blocks boot: it connects in the background after boot, retrying with
 * capped exponential backoff, with a bounded connect timeout unless the options set one, and it is
 * destroyed at shutdown. Every query is bounded by `queryTimeoutMs`; while the database cannot be
 * reached, requests that need it answer 503 `database unavailable` with `Retry-After`. With
 * `migrationsRun: true`, the pending migrations run as it connects, under a database lock (an
 * advisory lock on PostgreSQL, `GET_LOCK` on MySQL and MariaDB) so that of several replicas starting
 * together one migrates and the others wait; they are bounded by neither timeout.
 *
 * @example
 * @Module({ imports: [DatabaseModule.forRoot({ inject: [Env], useFactory: (env: Env) => ({ type: 'postgres', url: env.DATABASE_URL }) }), DatabaseModule.forFeature([Order])] })
 * export class AppModule {}
 */
@Module({})
export class DatabaseModule {
  /** The `DataSource`, injectable in every module. @example DatabaseModule.forRoot({ type: 'postgres', url }) */
  static forRoot(options: DatabaseOptionsSource, connect: DatabaseConnectOptions = {}): DynamicModule {
    const settings = resolveConnectOptions(connect);
    const { DataSource } = loadTypeOrm();
    // The connector manages only the DataSource made here: one that replaced it (a test's fake) is
    // never connected, nor destroyed.
    const managed = new WeakSet<object>();
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          useFactory: async (
            logger: Logger,
            redirect: DatabaseRedirect | undefined,
            made: DatabaseFactoryOptions,
          ) => {
            const { server = connect.server, ...given } = made;
            const resolved = redirect ? await redirect.redirect(given) : given;
            // The connections idle when an outage starts may be dead without knowing it: retired, so
            // that none costs a request its query bound once the database is back.
            const outage = new DatabaseOutage(logger, resolved.type, {
              onStart: () => retireIdleConnections(dataSource),
            });
            const bound = { timeoutMs: settings.queryTimeoutMs, outage };
            // TypeORM would run the migrations inside initialize(), with no lock: keel runs them
            // itself, under the database's lock, once the pool is open.
            const unlocked = { ...resolved, migrationsRun: false } as DataSourceOptions;
            const dataSource = new DataSource(withQueryBounds(withConnectTimeout(unlocked), bound));
            if (resolved.migrationsRun) {
              // Each wait for the lock stays under the query bound, which still applies to it, and
              // short enough for a shutdown, which is noticed between two waits.
              const lockWaitMs = Math.min(Math.ceil(settings.queryTimeoutMs / 2), MAX_LOCK_WAIT_MS);
              migrateOnConnect(dataSource, { lockWaitMs, logger });
            }
            // A test's own database replaces the application's server, which then never starts.
            if (server && !redirect) startServerOnConnect(dataSource, server);
            managed.add(dataSource);
            return dataSource;
          },
          inject: [LOGGER, DATABASE_REDIRECT, DATABASE_OPTIONS],
        },
        optionsProvider(DATABASE_OPTIONS, fromFunction(options), (given) => given),
        {
          provide: DatabaseConnector,
          useFactory: (
            dataSource: TypeOrmDataSource,
            logger: Logger,
            status: ApplicationStatus,
            redirect: DatabaseRedirect | undefined,
            load: LoadMonitor,
          ) =>
            managed.has(dataSource)
              ? new DatabaseConnector({
                  dataSource,
                  logger,
                  connect: released(settings, redirect),
                  status,
                  load,
                })
              : undefined,
          inject: [DataSource, LOGGER, ApplicationStatus, DATABASE_REDIRECT, LoadMonitor],
        },
        // Nothing redirects an application's database; keel/testing replaces this for a test's.
        { provide: DATABASE_REDIRECT, useValue: undefined },
      ],
      exports: [DataSource, DatabaseConnector],
    };
  }

  /**
   * The repositories of `entities`, each injectable with `@InjectRepository(Entity)` in the
   * importing module; until the database is connected, their methods answer 503 `database not
   * connected` with `Retry-After`. @example DatabaseModule.forFeature([Order, Customer])
   */
  static forFeature(entities: readonly Class[]): DynamicModule {
    const { DataSource } = loadTypeOrm();
    const providers = entities.map((entity) => ({
      provide: repositoryToken(entity),
      useFactory: (
        dataSource: TypeOrmDataSource,
        connector: DatabaseConnector | undefined,
        logger: Logger,
      ) => {
        const repository = dataSource.getRepository(entity);
        // A DataSource that replaced keel's (a test's) is connected by whoever made it: its
        // repositories are used as they are.
        return connector ? connectedRepository(repository, connector, logger) : repository;
      },
      inject: [DataSource, DatabaseConnector, LOGGER],
    }));
    return {
      module: DatabaseModule,
      providers,
      exports: providers.map((provider) => provider.provide),
    };
  }
}

// The older function form is a factory that injects nothing.
function fromFunction(
  options: DatabaseOptionsSource,
): DatabaseFactoryOptions | OptionsFactory<DatabaseFactoryOptions> {
  return typeof options === 'function' ? { useFactory: options } : options;
}

// A redirected database is removed once the pool is closed, after what the application stops itself.
function released(settings: ResolvedConnectOptions, redirect: DatabaseRedirect | undefined): ConnectSettings {
  if (!redirect) return settings;
  return {
    ...settings,
    onClosed: async () => {
      try {
        await settings.onClosed?.();
      } finally {
        await redirect.release();
      }
    },
  };
}

function resolveConnectOptions(connect: DatabaseConnectOptions): ResolvedConnectOptions {
  const attemptTimeoutMs = checkMilliseconds('database attemptTimeoutMs', connect.attemptTimeoutMs ?? 10_000);
  const initialDelayMs = checkMilliseconds('database initialDelayMs', connect.initialDelayMs ?? 250);
  const maxDelayMs = checkMilliseconds('database maxDelayMs', connect.maxDelayMs ?? 30_000);
  const queryTimeoutMs = checkMilliseconds('database queryTimeoutMs', connect.queryTimeoutMs ?? 5000);
  return {
    attemptTimeoutMs: Math.max(attemptTimeoutMs, 1),
    initialDelayMs: Math.max(initialDelayMs, 1),
    maxDelayMs: Math.max(maxDelayMs, initialDelayMs, 1),
    onClosed: connect.onClosed,
    queryTimeoutMs: Math.max(queryTimeoutMs, 1),
  };
}
