import type { DataSourceOptions } from 'typeorm';
import { InjectionToken } from '../container/token';

/**
 * Points the application's `DataSource` at another database before it is made: what `keel/testing`
 * puts in place (every application provides none) to run a test on a database of its own.
 */
export interface DatabaseRedirect {
  /** The options the `DataSource` is made with, from the ones the application gives. */
  redirect(options: DataSourceOptions): Promise<DataSourceOptions>;
  /** Removes what `redirect` made; runs once the `DataSource` is closed. */
  release(): Promise<void>;
}

/** Where `DatabaseModule.forRoot` finds the {@link DatabaseRedirect}: provided as `undefined`. */
export const DATABASE_REDIRECT = new InjectionToken<DatabaseRedirect | undefined>('DATABASE_REDIRECT');
