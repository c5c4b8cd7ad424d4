import type { DataSource } from 'typeorm';
import type { Container } from '../container/container';
import { DatabaseConnector } from '../database/database-connector';
import { startDatabaseServer } from '../database/database-server';
import { runSchemaWork } from '../orm/schema-work';
import { loadTypeOrm } from '../orm/typeorm';
import { MigrationErrors } from '../errors/migration-errors';

/**
 * The application's own `DataSource` (the one `DatabaseModule.forRoot` provides), connected for a
 * command such as `migrate`: background connecting is stopped first (an attempt already running is
 * waited for), and the pool is opened without running the migrations or synchronising the schema,
 * which would decide for the command what it was asked to show or do. The command destroys it.
 *
 * @example
 * const dataSource = await connectForCommand(container, 'migrate');
 */
export async function connectForCommand(container: Container, command: string): Promise<DataSource> {
  const { DataSource } = loadTypeOrm();
  if (!container.has(DataSource)) throw MigrationErrors.noDatabaseModule(command);
  if (container.has(DatabaseConnector)) await container.get(DatabaseConnector)?.stopConnecting();
  const dataSource = container.get(DataSource);
  if (!dataSource.isInitialized) {
    dataSource.setOptions({ migrationsRun: false, synchronize: false });
    await startDatabaseServer(dataSource);
    await runSchemaWork(() => dataSource.initialize());
  }
  return dataSource;
}
