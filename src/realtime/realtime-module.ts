import type { DataSource } from 'typeorm';
import type { DynamicModule } from '../container/module-definition';
import type { Token } from '../container/token';
import { Container } from '../container/container';
import { Module } from '../decorators/module';
import { RealtimeErrors } from '../errors/realtime-errors';
import { LOGGER, type Logger } from '../logging/logger';
import { Metrics } from '../observability/metrics';
import { loadTypeOrm } from '../orm/typeorm';
import { Broadcast } from './broadcast';
import { realtimeCounters } from './realtime-metrics';

/** Options of {@link RealtimeModule.forRoot}. */
export interface RealtimeModuleOptions {
  /** How events reach the other replicas: the application's PostgreSQL (`LISTEN`/`NOTIFY`). */
  readonly via?: 'postgres';
  /** How long events are kept for clients that reconnect with `Last-Event-ID`. Default: 2 minutes. */
  readonly replayWindowMs?: number;
}

/**
 * Channels shared by every replica: provides `Broadcast` to every module, and lets gateway sockets
 * `join` channels. Events are kept in the application's PostgreSQL (the migration
 * `RealtimeTables1764633600000` makes their table) and announced with `NOTIFY`: nothing to run
 * beside the database.
 *
 * @example
 * @Module({ imports: [DatabaseModule.forRoot({ type: 'postgres', url, migrations: [RealtimeTables1764633600000], migrationsRun: true }), RealtimeModule.forRoot()] })
 * export class AppModule {}
 */
@Module({})
export class RealtimeModule {
  /** Broadcasting through the application's PostgreSQL. @example RealtimeModule.forRoot({ replayWindowMs: 300_000 }) */
  static forRoot(options: RealtimeModuleOptions = {}): DynamicModule {
    const replayWindowMs = options.replayWindowMs ?? 120_000;
    if (!Number.isSafeInteger(replayWindowMs) || replayWindowMs <= 0)
      throw RealtimeErrors.invalidRealtimeOption('replayWindowMs', replayWindowMs);
    return {
      module: RealtimeModule,
      global: true,
      providers: [
        {
          provide: Broadcast,
          useFactory: (container: Container, logger: Logger, metrics: Metrics | undefined) =>
            new Broadcast(
              postgresOf(container),
              { replayWindowMs, counters: realtimeCounters(metrics, 'sse') },
              logger,
            ),
          inject: [Container as unknown as Token<Container>, LOGGER, { token: Metrics, optional: true }],
        },
      ],
      exports: [Broadcast],
    };
  }
}

function postgresOf(container: Container): DataSource {
  const { DataSource } = loadTypeOrm();
  if (!container.has(DataSource))
    throw RealtimeErrors.broadcastNeedsPostgres('no DatabaseModule provides one');
  const dataSource = container.get(DataSource);
  const { type } = dataSource.options;
  if (type !== 'postgres') throw RealtimeErrors.broadcastNeedsPostgres(`the DataSource is of type '${type}'`);
  return dataSource;
}
