import type { DataSource } from 'typeorm';
import { runSchemaWork } from '../orm/schema-work';

/** One statement of a schema change, with the values of its parameters, if any. */
export interface SchemaStatement {
  readonly sql: string;
  readonly parameters?: readonly unknown[] | undefined;
}

/** What it takes to bring the database to the entities (`up`), and back (`down`, in the order to run it). */
export interface SchemaDiff {
  readonly up: readonly SchemaStatement[];
  readonly down: readonly SchemaStatement[];
}

/**
 * The statements TypeORM's schema builder finds between `dataSource`'s entities and its database,
 * without running any: empty when they match. `down` undoes `up`, last change first.
 *
 * @example
 * const { up, down } = await schemaDiff(dataSource);
 */
export async function schemaDiff(dataSource: DataSource): Promise<SchemaDiff> {
  const sql = await runSchemaWork(() => dataSource.driver.createSchemaBuilder().log());
  const statement = ({ query, parameters }: { query: string; parameters?: unknown[] }): SchemaStatement => ({
    sql: query,
    parameters,
  });
  return { up: sql.upQueries.map(statement), down: [...sql.downQueries].reverse().map(statement) };
}
