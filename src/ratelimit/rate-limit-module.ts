import type { DataSource } from 'typeorm';
import { Container } from '../container/container';
import type { DynamicModule } from '../container/module-definition';
import type { OptionalDependency } from '../container/provider';
import { optionsProvider, type OptionsFactory } from '../container/options-factory';
import { InjectionToken, type Token } from '../container/token';
import { loadTypeOrm } from '../orm/typeorm';
import { Module } from '../decorators/module';
import { checkBoolean, checkMilliseconds } from '../lifecycle/option-checks';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import { LOGGER, type Logger } from '../logging/logger';
import { memoryStore, redisStore, type BudgetStore } from './budget-store';
import { postgresStore } from './postgres-store';
import { RateLimitErrors } from '../errors/rate-limit-errors';
import type { RateLimitModuleOptions, RateLimitStore } from './rate-limit-options';
import { checkLimit, RateLimits, type RateLimitSettings } from './rate-limits';
import { STORE_FAILURE_LISTENER } from './store-failures';

/**
 * `RateLimitModule`'s options made at boot by a factory with the providers it needs; the store stays
 * fixed, since what it needs is decided when the module is made.
 *
 * @example
 * RateLimitModule.forRoot({ store: 'postgres', inject: [Env], useFactory: (env: Env) => ({ limits: { api: { limit: env.API_LIMIT, windowS: 60 } } }) })
 */
export interface RateLimitModuleFactory extends OptionsFactory<Omit<RateLimitModuleOptions, 'store'>> {
  store?: RateLimitStore;
}

/**
 * Rate limits for the routes marked `@RateLimit`, kept in the process (`'memory'`, the default), in
 * the application's PostgreSQL (`'postgres'`, beside `DatabaseModule`), or in Redis (`{ redis }`):
 * replicas with the same store share one budget. Everything is decided at boot: routes without
 * `@RateLimit` pay nothing.
 *
 * @example
 * @Module({ imports: [RateLimitModule.forRoot({ store: 'postgres' })] })
 * export class AppModule {}
 */
@Module({})
export class RateLimitModule {
  /** Rate limits kept in `options.store`. @example RateLimitModule.forRoot({ store: { redis: () => redis }, failClosed: true }) */
  static forRoot(options: RateLimitModuleOptions | RateLimitModuleFactory = {}): DynamicModule {
    const store = checkStore(options.store ?? 'memory');
    const settings = new InjectionToken<RateLimitSettings>('RateLimitModule options');
    const needsDatabase = store === 'postgres';
    const inject: (Token | OptionalDependency)[] = [
      LOGGER,
      settings,
      // Provided to every module by the container itself, whose constructor is private.
      Container as unknown as Token<Container>,
    ];
    if (needsDatabase) inject.push({ token: loadTypeOrm().DataSource, optional: true });
    return {
      module: RateLimitModule,
      providers: [
        optionsProvider(settings, options, (given: RateLimitModuleOptions) => checkSettings(given)),
        {
          provide: RateLimits,
          useFactory: (
            logger: Logger,
            checked: RateLimitSettings,
            container: Container,
            dataSource?: DataSource,
          ) =>
            new RateLimits(budgetStore(store, dataSource), checked, logger, () =>
              container.getAll(STORE_FAILURE_LISTENER),
            ),
          inject,
        },
      ],
      exports: [RateLimits],
    };
  }
}

function checkSettings(options: RateLimitModuleOptions): RateLimitSettings {
  const { keyPrefix = 'keel' } = options;
  if (typeof keyPrefix !== 'string' || keyPrefix === '') {
    throw LifecycleErrors.invalidOption('rate limit keyPrefix', keyPrefix, 'a non-empty string');
  }
  return {
    failClosed: checkBoolean('rate limit failClosed', options.failClosed ?? false),
    timeoutMs: Math.max(1, checkMilliseconds('rate limit timeoutMs', options.timeoutMs ?? 1000)),
    keyPrefix,
    limits: new Map(
      Object.entries(options.limits ?? {}).map(([name, limit]) => [
        name,
        checkLimit(limit, `RateLimitModule.forRoot's limits.${name}`),
      ]),
    ),
  };
}

function budgetStore(store: RateLimitStore, dataSource: DataSource | undefined): BudgetStore {
  if (store === 'memory') return memoryStore();
  if (store === 'postgres') {
    if (!dataSource) throw RateLimitErrors.storeNeedsDatabase('no DataSource is provided');
    const { type } = dataSource.options;
    if (type !== 'postgres') throw RateLimitErrors.storeNeedsDatabase(`the DataSource is of type '${type}'`);
    return postgresStore(dataSource);
  }
  const client: unknown = store.redis();
  if (typeof client !== 'object' || client === null) throw RateLimitErrors.noRedisClient(client);
  return redisStore(client);
}

function checkStore(store: unknown): RateLimitStore {
  if (store === 'memory' || store === 'postgres') return store;
  const redis =
    typeof store === 'object' && store !== null ? (store as { redis?: unknown }).redis : undefined;
  if (typeof redis !== 'function') throw RateLimitErrors.invalidStore(store);
  return store as RateLimitStore;
}
