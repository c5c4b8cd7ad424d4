import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Column, Entity, PrimaryGeneratedColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { DatabaseModule, Module, type DynamicModule } from 'keel';
import { createTestingApplication } from 'keel/testing';
import { median } from '../report/statistics';

/** What `withTestDatabase()` costs a test: boot (the copy made and connected) and close (dropped). */
export interface TestDatabaseFigures {
  /** The first boot of a schema no run has seen, its template made and migrated. */
  readonly firstBootMs: number;
  /** Medians over the boots after it, each on a copy of that template. */
  readonly bootMs: number;
  readonly closeMs: number;
  readonly boots: number;
}

@Entity('bench_test_orders')
class BenchOrder {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 80 }) customer!: string;
  @Column({ type: 'int' }) quantity!: number;
}

// A schema of its own for each run (the migration's name is unique), so that the first boot makes its template.
function freshApplication(databaseUrl: string): DynamicModule {
  const name = `CreateBenchTestOrders${randomBytes(4).toString('hex')}1732320000000`;
  class CreateOrders implements MigrationInterface {
    name = name;
    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(
        'CREATE TABLE bench_test_orders (id serial PRIMARY KEY, customer varchar(80) NOT NULL, quantity int NOT NULL)',
      );
    }
    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query('DROP TABLE bench_test_orders');
    }
  }
  @Module({})
  class BenchTestModule {}
  return {
    module: BenchTestModule,
    imports: [
      DatabaseModule.forRoot({
        type: 'postgres',
        url: databaseUrl,
        entities: [BenchOrder],
        migrations: [CreateOrders],
        migrationsRun: true,
      }),
    ],
  };
}

/**
 * Boots and closes one application `boots` times through `withTestDatabase({ url })`, one after
 * the other, and times each step; the template of its schema, new to the server, is dropped after.
 */
export async function measureTestDatabaseBoot(
  databaseUrl: string,
  boots: number,
): Promise<TestDatabaseFigures> {
  const module = freshApplication(databaseUrl);
  const before = await templates(databaseUrl);
  const bootTimes: number[] = [];
  const closeTimes: number[] = [];
  try {
    for (let boot = 0; boot <= boots; boot += 1) {
      const startedAt = performance.now();
      const app = await createTestingApplication(module)
        .withTestDatabase({ url: databaseUrl })
        .boot({ logger: false });
      const bootedAt = performance.now();
      await app.close();
      bootTimes.push(bootedAt - startedAt);
      closeTimes.push(performance.now() - bootedAt);
    }
  } finally {
    for (const template of await templates(databaseUrl)) {
      if (before.includes(template)) continue;
      await onServer(databaseUrl, `ALTER DATABASE "${template}" IS_TEMPLATE false`);
      await onServer(databaseUrl, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    }
  }
  return {
    firstBootMs: bootTimes[0] ?? Number.NaN,
    bootMs: median(bootTimes.slice(1)),
    closeMs: median(closeTimes.slice(1)),
    boots,
  };
}

async function templates(databaseUrl: string): Promise<string[]> {
  const rows = await onServer(
    databaseUrl,
    "SELECT datname FROM pg_database WHERE datname LIKE 'keel\\_template\\_%'",
  );
  return rows.map((row) => String(row.datname));
}

async function onServer(databaseUrl: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
