import { createHash } from 'node:crypto';
import type { DataSourceOptions } from 'typeorm';
import { loadTypeOrm } from '../orm/typeorm';

/**
 * A digest of the schema `options` make: the tables TypeORM builds from the entities (columns,
 * types, keys, indices), the migrations (names and code), and what decides how they are applied.
 * A test database's template is named after it, so that a changed entity or migration gets a new
 * template, and an unchanged schema reuses the one already migrated.
 *
 * @example
 * await schemaKey({ type: 'postgres', entities: [Order], migrations: [CreateOrders] }) // '3f0c9a…' (16 hex digits)
 */
export async function schemaKey(options: DataSourceOptions): Promise<string> {
  const probe = new (loadTypeOrm().DataSource)(options);
  // What initialize() builds before it connects: entities and migrations, from classes or globs.
  await (probe as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  const tables = probe.entityMetadatas.map((entity) => [
    entity.tablePath,
    entity.columns.map((column) => [
      column.databaseName,
      String(column.type),
      column.length,
      column.isNullable,
      column.isPrimary,
      column.generationStrategy,
      String(column.default),
      column.isArray,
      column.enum,
    ]),
    entity.indices.map((index) => [index.name, index.isUnique]),
    entity.uniques.map((unique) => unique.name),
    entity.foreignKeys.map((key) => key.name),
  ]);
  const migrations = probe.migrations.map((migration) => [
    migration.name ?? migration.constructor.name,
    String(migration.up),
    String(migration.down),
  ]);
  const { type, synchronize, migrationsTableName } = options;
  const schema = 'schema' in options ? options.schema : undefined;
  const described = JSON.stringify([type, schema, synchronize, migrationsTableName, tables, migrations]);
  return createHash('sha256').update(described).digest('hex').slice(0, 16);
}
