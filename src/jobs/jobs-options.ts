import type { DataSourceOptions } from 'typeorm';
import { JobErrors } from '../errors/job-errors';

/** The options of `JobsModule.forRoot`; all are optional. */
export interface JobsModuleOptions {
  /** The PostgreSQL server to keep the jobs in. Default: the application's `DatabaseModule` connection. */
  readonly url?: string;
  /** The schema the queue's tables live in, created when missing. Default: `'keel_jobs'`. */
  readonly schema?: string;
  /** How many connections the queue may hold, beside the application's pool. Default: `4`. */
  readonly poolSize?: number;
  /** How often an idle replica asks for new jobs, in seconds (at least 0.5). Default: `2`. */
  readonly pollingIntervalS?: number;
  /** How often a replica looks for schedules that are due, in seconds (1 to 45). Default: `30`. */
  readonly cronCheckIntervalS?: number;
  /**
   * How long a running job's replica may be silent before the job is taken from it and tried
   * again, in whole seconds (10 to 300): a replica proves each of its running jobs alive every half
   * of this. Default: `10`, so a job whose replica died runs again within about 25 s.
   */
  readonly heartbeatTimeoutS?: number;
}

/** The options with the defaults filled in. @internal */
export interface JobsSettings {
  readonly url: string | undefined;
  readonly schema: string;
  readonly poolSize: number;
  readonly pollingIntervalS: number;
  readonly cronCheckIntervalS: number;
  readonly heartbeatTimeoutS: number;
}

/** What pg-boss connects with. @internal */
export interface JobsConnection {
  readonly connectionString?: string;
  readonly host?: string;
  readonly port?: number;
  readonly user?: string;
  readonly password?: string | (() => string | Promise<string>);
  readonly database?: string;
  readonly ssl?: unknown;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Fills in the defaults of {@link JobsModuleOptions}; a value of the wrong kind is a boot error. @internal */
export function resolveJobsOptions(options: JobsModuleOptions): JobsSettings {
  const {
    url,
    schema = 'keel_jobs',
    poolSize = 4,
    pollingIntervalS = 2,
    cronCheckIntervalS = 30,
    heartbeatTimeoutS = 10,
  } = options;
  if (url !== undefined && (typeof url !== 'string' || !/^postgres(ql)?:\/\//.test(url))) {
    throw JobErrors.invalidJobsOption('url', url, 'a postgres:// URL');
  }
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
    throw JobErrors.invalidJobsOption('schema', schema, 'a lower-case SQL name (letters, digits, _)');
  }
  if (!Number.isInteger(poolSize) || poolSize < 2) {
    throw JobErrors.invalidJobsOption('poolSize', poolSize, 'a whole number from 2');
  }
  if (typeof pollingIntervalS !== 'number' || !(pollingIntervalS >= 0.5)) {
    throw JobErrors.invalidJobsOption('pollingIntervalS', pollingIntervalS, 'a number of seconds from 0.5');
  }
  if (!Number.isInteger(cronCheckIntervalS) || cronCheckIntervalS < 1 || cronCheckIntervalS > 45) {
    throw JobErrors.invalidJobsOption(
      'cronCheckIntervalS',
      cronCheckIntervalS,
      'a whole number of seconds from 1 to 45',
    );
  }
  // pg-boss refuses a heartbeat under 10 s; past 5 minutes a dead replica's jobs wait too long.
  if (!Number.isInteger(heartbeatTimeoutS) || heartbeatTimeoutS < 10 || heartbeatTimeoutS > 300) {
    throw JobErrors.invalidJobsOption(
      'heartbeatTimeoutS',
      heartbeatTimeoutS,
      'a whole number of seconds from 10 to 300',
    );
  }
  return { url, schema, poolSize, pollingIntervalS, cronCheckIntervalS, heartbeatTimeoutS };
}

/**
 * Where the jobs are kept: the URL the options give, else the application's own PostgreSQL (the
 * embedded database included); any other database is a boot error. @internal
 */
export function jobsConnection(
  url: string | undefined,
  database: DataSourceOptions | undefined,
): JobsConnection {
  if (url) return { connectionString: url };
  if (!database) throw JobErrors.noDatabase();
  if (database.type !== 'postgres') throw JobErrors.notPostgres(database.type);
  if (database.url) return { connectionString: database.url, ssl: database.ssl };
  return {
    host: database.host,
    port: database.port,
    user: database.username,
    password: database.password,
    database: database.database,
    ssl: database.ssl,
  };
}
