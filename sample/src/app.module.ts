import {
  DatabaseModule,
  HealthModule,
  MetricsModule,
  Module,
  OpenApiModule,
  RateLimitModule,
  SessionModule,
  redisCheck,
  type DynamicModule,
} from 'keel';
import { RedisConnection } from './cache/redis-connection';
import type { DatabaseTarget } from './database/database-target';
import { POOL_SIZE } from './database/choose-database';
import { API_TOKEN } from './http/api-token-guard';
import { OrderController } from './http/controllers/order';
import { OrderApiController } from './http/controllers/order-api';
import { CreateOrders1732320000000 } from './migrations/1732320000000-create-orders';
import { Order } from './orders/order.entity';
import { OrderService } from './orders/order-service';
import { STARTUP_FACTS, StartupReport, type StartupFacts } from './startup-report';

/** What the application is configured with besides its database. */
export interface AppSettings {
  /** The bearer token the JSON API's writes need; undefined refuses them. */
  readonly apiToken: string | undefined;
  /** The key that signs the HTML pages' sessions. */
  readonly sessionSecret: string;
  /** Readiness answers say why the database is unavailable in the driver's words, or only `unavailable`. */
  readonly exposesDatabaseReason: boolean;
  /** A Redis readiness checks too; undefined, there is none. */
  readonly redisUrl?: string | undefined;
  /** How many writes to the JSON API one client address may make per minute. Default: 60. */
  readonly apiWritesPerMinute?: number;
  /** The port the metrics are served on, apart from the application's. */
  readonly metricsPort: number;
  /** What the log says once the application serves; nothing when absent. */
  readonly startup?: StartupFacts;
}

@Module({})
export class AppModule {
  /**
   * The application on `database`, its JSON API's writes open to `settings.apiToken`, its pages'
   * sessions signed with `settings.sessionSecret`: migrations run as it connects, in the background.
   */
  static on(database: DatabaseTarget, settings: AppSettings): DynamicModule {
    const redis = settings.redisUrl ? new RedisConnection(settings.redisUrl) : undefined;
    return {
      module: AppModule,
      imports: [
        DatabaseModule.forRoot(
          {
            type: 'postgres',
            url: database.url,
            entities: [Order],
            migrations: [CreateOrders1732320000000],
            migrationsRun: true,
            poolSize: POOL_SIZE,
          },
          { server: database.server },
        ),
        DatabaseModule.forFeature([Order]),
        HealthModule.forRoot({
          exposeReason: settings.exposesDatabaseReason,
          checks: redis ? { redis: redisCheck(() => redis.client) } : {},
        }),
        SessionModule.forRoot({ secret: () => settings.sessionSecret }),
        // On a port of their own, which the pod's annotations point Prometheus to and the Service
        // does not expose.
        MetricsModule.forRoot({ port: settings.metricsPort }),
        // The JSON API's writes (@RateLimit('api-writes')), counted in the application's own
        // database, so every replica spends the same budget.
        RateLimitModule.forRoot({
          store: 'postgres',
          limits: { 'api-writes': { limit: settings.apiWritesPerMinute ?? 60, windowS: 60 } },
        }),
        // GET /openapi.json and GET /docs: the JSON API and the health endpoints (the HTML pages
        // are for browsers, not API clients).
        OpenApiModule.forRoot({
          title: 'Orders',
          version: '1.0.0',
          description: 'The orders of the keel sample application, as JSON.',
          include: (route) => route.path.startsWith('/api/') || route.path.startsWith('/health'),
        }),
      ],
      controllers: [OrderController, OrderApiController],
      providers: [
        OrderService,
        { provide: API_TOKEN, useValue: settings.apiToken },
        ...(settings.startup ? [StartupReport, { provide: STARTUP_FACTS, useValue: settings.startup }] : []),
        ...(redis ? [{ provide: RedisConnection, useValue: redis }] : []),
      ],
    };
  }
}
