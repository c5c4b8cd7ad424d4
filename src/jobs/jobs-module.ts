import type { DataSource } from 'typeorm';
import { Container } from '../container/container';
import type { DynamicModule } from '../container/module-definition';
import type { Class } from '../container/token';
import { startDatabaseServer } from '../database/database-server';
import { loadTypeOrm } from '../orm/typeorm';
import { Module } from '../decorators/module';
import { ApplicationStatus } from '../lifecycle/application-status';
import { LOGGER, type Logger } from '../logging/logger';
import { MODULE_CHECKS, type ModuleCheck } from '../health/module-checks';
import { Jobs } from './jobs';
import { jobsConnection, resolveJobsOptions, type JobsModuleOptions } from './jobs-options';
import { JobsRuntime } from './jobs-runtime';
import { loadPgBoss } from './pg-boss';

// pg-boss connects with pg's defaults, which wait forever for a server that accepts TCP and never answers.
const CONNECT_TIMEOUT_MS = 5000;
// How often a replica that has claimed a due schedule's job looks for it: well under a minute, so
// a tick runs within seconds of its minute.
const MAX_CRON_WORKER_INTERVAL_S = 5;

/**
 * Jobs and schedules kept in PostgreSQL ([pg-boss](https://github.com/timgit/pg-boss)), shared by
 * every replica: `@Job` methods run the jobs `Jobs.enqueue` stores, once each, retried with backoff;
 * `@Cron` methods run once per tick across the replicas. The connection is the application's
 * `DatabaseModule` one (the embedded database included) unless `url` names another server; the
 * tables live in the schema `keel_jobs`. `Jobs` is injectable in every module.
 *
 * @example
 * @Module({ imports: [DatabaseModule.forRoot(options), JobsModule.forRoot()], providers: [Mailer] })
 * export class AppModule {}
 */
@Module({})
export class JobsModule {
  /** The queue, on the application's database or the server `url` names. @example JobsModule.forRoot({ pollingIntervalS: 1 }) */
  static forRoot(options: JobsModuleOptions = {}): DynamicModule {
    const settings = resolveJobsOptions(options);
    loadPgBoss();
    const { DataSource: DataSourceClass } = loadTypeOrm();
    return {
      module: JobsModule,
      global: true,
      providers: [
        {
          provide: JobsRuntime,
          useFactory: (
            container: Container,
            status: ApplicationStatus,
            logger: Logger,
            dataSource?: DataSource,
          ) => {
            // Checked at boot: no database, or one that is not PostgreSQL, stops it.
            jobsConnection(settings.url, dataSource?.options);
            return new JobsRuntime({
              // The embedded database's address is known once its server runs, which connecting starts.
              connection: async () => {
                if (dataSource && !settings.url) await startDatabaseServer(dataSource);
                return jobsConnection(settings.url, dataSource?.options);
              },
              options: {
                schema: settings.schema,
                max: settings.poolSize,
                application_name: 'keel-jobs',
                connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
                cronMonitorIntervalSeconds: settings.cronCheckIntervalS,
                cronWorkerIntervalSeconds: Math.min(settings.cronCheckIntervalS, MAX_CRON_WORKER_INTERVAL_S),
                // The pass that fails jobs whose heartbeat stopped (pg-boss's default is once a minute):
                // as often as the heartbeat timeout, so a dead replica's job is retried within two of them.
                superviseIntervalSeconds: settings.heartbeatTimeoutS,
                monitorIntervalSeconds: settings.heartbeatTimeoutS,
              },
              heartbeatTimeoutS: settings.heartbeatTimeoutS,
              pollingIntervalS: settings.pollingIntervalS,
              container,
              status,
              logger,
            });
          },
          // The container is what the runtime finds the @Job methods through, once every provider exists.
          inject: [
            Container as unknown as Class,
            ApplicationStatus,
            LOGGER,
            { token: DataSourceClass, optional: true },
          ],
        },
        // Readiness waits for the queue: a replica whose writes enqueue is not ready before it can.
        { provide: MODULE_CHECKS, useFactory: queueCheck, inject: [JobsRuntime] },
        {
          provide: Jobs,
          useFactory: (runtime: JobsRuntime, dataSource?: DataSource) =>
            new Jobs(runtime, { dataSource, url: settings.url }),
          inject: [JobsRuntime, { token: DataSourceClass, optional: true }],
        },
      ],
      exports: [Jobs, JobsRuntime],
    };
  }
}

// "starting" until the queue has connected and created its queues; a start that failed stays so, as
// the queue keeps retrying it.
function queueCheck(runtime: JobsRuntime): ModuleCheck {
  return {
    name: 'jobs',
    check: async () => {
      if (!(await runtime.whenStarted(0))) throw new Error('starting');
    },
  };
}
