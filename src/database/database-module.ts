import { DataSource, type DataSourceOptions } from 'typeorm';
import { checkMilliseconds } from '../application-options';
import type { DynamicModule } from '../container/module-definition';
import type { Class } from '../container/token';
import { Module } from '../decorators/module';
import { LOGGER } from '../lifecycle/application-status';
import type { Logger } from '../logging/logger';
import { withConnectTimeout } from './connect-timeouts';
import { DatabaseConnector, type RetrySettings } from './database-connector';
import { repositoryToken } from './inject-repository';

/** TypeORM's options, or a function that returns (or resolves to) them at boot. */
export type DatabaseOptionsSource =
  DataSourceOptions | (() => DataSourceOptions | Promise<DataSourceOptions>);

/** How `DatabaseModule` retries a failed connection; every option is optional. */
export interface DatabaseRetryOptions {
  /** The delay after the first failure, doubled after each one. Default: `250`. */
  initialDelayMs?: number;
  /** The longest delay between two attempts. Default: `30000`. */
  maxDelayMs?: number;
}

/**
 * Provides a TypeORM `DataSource` (`forRoot`, global) and entities' repositories (`forFeature`).
 * The `DataSource` never blocks boot: it connects in the background after boot, retrying with
 * capped exponential backoff, with a bounded connect timeout unless the options set one, and it is
 * destroyed at shutdown.
 *
 * @example
 * @Module({ imports: [DatabaseModule.forRoot(() => ({ type: 'postgres', url: process.env.DATABASE_URL })), DatabaseModule.forFeature([Order])] })
 * export class AppModule {}
 */
@Module({})
export class DatabaseModule {
  /** The `DataSource`, injectable in every module. @example DatabaseModule.forRoot({ type: 'postgres', url }) */
  static forRoot(options: DatabaseOptionsSource, retry: DatabaseRetryOptions = {}): DynamicModule {
    const settings = resolveRetry(retry);
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DatabaseConnector,
          useFactory: async (logger: Logger) => {
            const resolved = typeof options === 'function' ? await options() : options;
            return new DatabaseConnector(new DataSource(withConnectTimeout(resolved)), logger, settings);
          },
          inject: [LOGGER],
        },
        {
          provide: DataSource,
          useFactory: (connector: DatabaseConnector) => connector.dataSource,
          inject: [DatabaseConnector],
        },
      ],
      exports: [DataSource],
    };
  }

  /**
   * The repositories of `entities`, each injectable with `@InjectRepository(Entity)` in the
   * importing module. @example DatabaseModule.forFeature([Order, Customer])
   */
  static forFeature(entities: readonly Class[]): DynamicModule {
    const providers = entities.map((entity) => ({
      provide: repositoryToken(entity),
      useFactory: (dataSource: DataSource) => dataSource.getRepository(entity),
      inject: [DataSource],
    }));
    return {
      module: DatabaseModule,
      providers,
      exports: providers.map((provider) => provider.provide),
    };
  }
}

function resolveRetry(retry: DatabaseRetryOptions): RetrySettings {
  const initialDelayMs = checkMilliseconds('database retry initialDelayMs', retry.initialDelayMs ?? 250);
  const maxDelayMs = checkMilliseconds('database retry maxDelayMs', retry.maxDelayMs ?? 30_000);
  return { initialDelayMs: Math.max(initialDelayMs, 1), maxDelayMs: Math.max(maxDelayMs, initialDelayMs, 1) };
}
