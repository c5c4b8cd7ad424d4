import type { DataSource } from 'typeorm';
import type { DynamicModule } from '../container/module-definition';
import { optionsProvider, type OptionsFactory } from '../container/options-factory';
import { InjectionToken, type Token } from '../container/token';
import { Container } from '../container/container';
import { Module } from '../decorators/module';
import { RealtimeErrors } from '../errors/realtime-errors';
import { LOGGER, type Logger } from '../logging/logger';
import { Metrics } from '../observability/metrics';
import { loadTypeOrm } from '../orm/typeorm';
import { Broadcast } from './broadcast';
import { PostgresTransport } from './postgres-transport';
import { realtimeCounters } from './realtime-metrics';
import { redisConnectionOf } from './redis-connection';
import { RedisTransport } from './redis-transport';
import { checkRealtimeOptions, type RealtimeModuleOptions, type RealtimeSettings } from './realtime-options';
import type { RealtimeTransport } from './realtime-transport';

/**
 * Channels shared by every replica: provides `Broadcast` to every module, and lets gateway sockets
 * `join` channels. Events are kept in the application's PostgreSQL (the migration
 * `RealtimeTables1764633600000` makes their table) and announced with `NOTIFY`, nothing to run beside
 * the database; or, with `via: 'redis'`, kept in its Redis and announced with pub/sub.
 *
 * @example
 * @Module({ imports: [DatabaseModule.forRoot({ type: 'postgres', url, migrations: [RealtimeTables1764633600000], migrationsRun: true }), RealtimeModule.forRoot()] })
 * export class AppModule {}
 */
@Module({})
export class RealtimeModule {
  /**
   * Broadcasting through the application's PostgreSQL (the default) or its Redis (`via: 'redis'`),
   * the options given as they are or made at boot by a factory (`{ inject, useFactory }`).
   * @example RealtimeModule.forRoot({ via: 'redis', redis: () => redis, replayWindowMs: 300_000 })
   */
  static forRoot(options: RealtimeModuleOptions | OptionsFactory<RealtimeModuleOptions> = {}): DynamicModule {
    const settings = new InjectionToken<RealtimeSettings>('RealtimeModule options');
    return {
      module: RealtimeModule,
      global: true,
      providers: [
        optionsProvider(settings, options, checkRealtimeOptions),
        {
          provide: Broadcast,
          useFactory: (
            checked: RealtimeSettings,
            container: Container,
            logger: Logger,
            metrics: Metrics | undefined,
          ) => new Broadcast(transportOf(checked, container, logger), realtimeCounters(metrics, 'sse')),
          inject: [
            settings,
            // Provided to every module by the container itself, whose constructor is private.
            Container as unknown as Token<Container>,
            LOGGER,
            { token: Metrics, optional: true },
          ],
        },
      ],
      exports: [Broadcast],
    };
  }
}

function transportOf(settings: RealtimeSettings, container: Container, logger: Logger): RealtimeTransport {
  if (settings.via === 'redis')
    return new RedisTransport(redisConnectionOf(settings.redis), settings, logger);
  return new PostgresTransport(postgresOf(container), settings, logger);
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
