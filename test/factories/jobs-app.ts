import { Client } from 'pg';
import {
  DatabaseModule,
  JobsModule,
  Module,
  createApplication,
  type Application,
  type Class,
  type ModuleImport,
  type Provider,
} from 'keel';
import { describeNeeding } from './requirements';
import { postgresServerMissing, postgresUrl } from './test-databases';

/**
 * Registers a describe block of job tests: several replicas share one queue there, which takes a
 * PostgreSQL server (skipped, or failed where services are required, on the embedded one).
 */
export function describeJobs(title: string, body: () => void): void {
  describeNeeding(postgresServerMissing(), title, body);
}

/** A pg-boss schema of a test's own on the test database, so parallel runs never share a queue. */
export function jobsSchema(label: string): string {
  return `keel_jobs_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

/** How {@link bootJobsApp} boots a replica. */
export interface JobsAppOptions {
  readonly schema: string;
  readonly providers: readonly (Class | Provider)[];
  readonly shutdownTimeoutMs?: number;
  readonly cronCheckIntervalS?: number;
  /** More modules the replica imports (MetricsModule). */
  readonly imports?: readonly ModuleImport[];
}

/**
 * One replica: the test database through `DatabaseModule`, `JobsModule` on `schema` polling every
 * half second, and `providers` (the classes with @Job and @Cron methods).
 */
export function bootJobsApp(options: JobsAppOptions): Promise<Application> {
  @Module({
    imports: [
      DatabaseModule.forRoot({ type: 'postgres', url: postgresUrl() }),
      JobsModule.forRoot({
        schema: options.schema,
        pollingIntervalS: 0.5,
        cronCheckIntervalS: options.cronCheckIntervalS ?? 30,
      }),
      ...(options.imports ?? []),
    ],
    providers: [...options.providers],
  })
  class JobsAppModule {}
  return createApplication(JobsAppModule, {
    logger: false,
    handleSignals: false,
    shutdownTimeoutMs: options.shutdownTimeoutMs ?? 10_000,
  });
}

/** Runs `sql` on the test database, on a connection of its own. */
export async function queryTestDatabase<Row = Record<string, unknown>>(sql: string): Promise<Row[]> {
  const client = new Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** Drops a schema `jobsSchema` named, with the queue in it. */
export function dropJobsSchema(schema: string): Promise<unknown> {
  return queryTestDatabase(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
