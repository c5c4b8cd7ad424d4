import type { DataSource, EntityManager } from 'typeorm';
import { JobErrors } from '../errors/job-errors';
import { jobsConnection, type JobsConnection } from './jobs-options';

/** The connection pg-boss runs its insert on when `send` is given `{ db }`. @internal */
export interface QueueDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Where the queue's tables are, as a transaction that stores a job must see them. @internal */
export interface QueueLocation {
  /** The application's `DataSource`, when it has one. */
  readonly dataSource: DataSource | undefined;
  /** The server `JobsModule.forRoot({ url })` names, when it names one. */
  readonly url: string | undefined;
}

/**
 * The open transaction of `manager` as the connection pg-boss stores the job `name` through, so the
 * job commits or rolls back with the transaction's writes. A manager with no transaction open, or
 * one whose database is not where the queue's tables are, throws rather than storing the job apart.
 * @internal
 *
 * @example
 * await boss.send(name, data, { db: transactionDb(name, manager, { dataSource, url: undefined }) });
 */
export function transactionDb(name: string, manager: EntityManager, queue: QueueLocation): QueueDb {
  const runner = (manager as Partial<EntityManager> | null | undefined)?.queryRunner;
  if (!runner?.isTransactionActive || runner.isReleased) throw JobErrors.notATransaction(name);
  const problem = elsewhere(manager.dataSource, queue);
  if (problem) throw JobErrors.transactionElsewhere(name, problem);
  return {
    executeSql: async (text, values) => ({ rows: (await runner.query(text, values, true)).records }),
  };
}

function elsewhere(dataSource: DataSource, queue: QueueLocation): string | undefined {
  if (!queue.dataSource) return 'the jobs are kept on the server JobsModule.forRoot({ url }) names';
  if (dataSource !== queue.dataSource) {
    return "it belongs to a DataSource other than the application's (DatabaseModule.forRoot)";
  }
  // Compared as written: two spellings of one server (localhost, 127.0.0.1) are refused, never
  // two servers taken for one.
  const application = jobsConnection(undefined, dataSource.options);
  if (queue.url && addressOf({ connectionString: queue.url }) !== addressOf(application)) {
    return `the jobs are kept on the server JobsModule.forRoot({ url }) names, not in the application's database`;
  }
  return undefined;
}

// host:port/database, with PostgreSQL's defaults filled in (the database defaults to the user's name).
function addressOf(connection: JobsConnection): string {
  if (connection.connectionString) {
    const url = new URL(connection.connectionString);
    const database = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username);
    return `${url.hostname || 'localhost'}:${url.port || 5432}/${database}`;
  }
  const { host = 'localhost', port = 5432, database = connection.user ?? '' } = connection;
  return `${host}:${port}/${database}`;
}
