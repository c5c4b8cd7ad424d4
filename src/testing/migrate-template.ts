import type { DataSourceOptions } from 'typeorm';
import { loadTypeOrm } from '../orm/typeorm';

/**
 * Gives the empty database `options` name the application's schema: synchronised from the
 * entities when the options say `synchronize`, then every migration, in TypeORM's transactions
 * (per `migrationsTransactionMode`), whether or not the application runs them as it connects.
 *
 * @example
 * await migrateTemplate({ ...options, url: 'postgres://postgres@127.0.0.1/keel_template_3f0c9a' });
 */
export async function migrateTemplate(options: DataSourceOptions): Promise<void> {
  const dataSource = new (loadTypeOrm().DataSource)({
    ...options,
    migrationsRun: false,
  } as DataSourceOptions);
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: options.migrationsTransactionMode ?? 'all' });
  } finally {
    await dataSource.destroy();
  }
}
