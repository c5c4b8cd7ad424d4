import {
  ConfigModule,
  DatabaseModule,
  HealthModule,
  JobsModule,
  MetricsModule,
  Module,
  OpenApiModule,
  RateLimitModule,
  SessionModule,
} from 'keel';
import { RedisConnection, redisConnectionFor, redisUrlOf } from './cache/redis-connection';
import { RedisReadiness } from './cache/redis-readiness';
import { SampleConfig } from './config/sample-config';
import { POOL_SIZE, chooseDatabase } from './database/choose-database';
import { API_TOKEN } from './http/api-token-guard';
import { OrderController } from './http/controllers/order';
import { OrderApiController } from './http/controllers/order-api';
import { chooseSessionSecret } from './http/session-secret';
import { CreateOrders1732320000000 } from './migrations/1732320000000-create-orders';
import { OrderJobs } from './orders/order-jobs';
import { Order } from './orders/order.entity';
import { OrderService } from './orders/order-service';
import { OrderFeed } from './orders/order-feed';
import { LiveOrdersController } from './http/controllers/live-orders';
import { StartupReport } from './startup-report';
import { AddOrderInternalNote1795814984841 } from './migrations/1795814984841-add-order-internal-note';

/**
 * The sample, configured by `SampleConfig` (the environment and `.env`, checked at boot): its JSON
 * API's writes open to `API_TOKEN`, its pages' sessions signed with `SESSION_SECRET`, migrations run
 * as it connects, in the background.
 */
@Module({
  imports: [
    ConfigModule.forRoot({ schema: SampleConfig }),
    DatabaseModule.forRoot({
      inject: [SampleConfig],
      useFactory: (config: SampleConfig) => {
        const { url, server } = chooseDatabase(config);
        return {
          type: 'postgres',
          url,
          server,
          entities: [Order],
          migrations: [CreateOrders1732320000000, AddOrderInternalNote1795814984841],
          migrationsRun: true,
          poolSize: POOL_SIZE,
        };
      },
    }),
    DatabaseModule.forFeature([Order]),
    HealthModule.forRoot({
      inject: [SampleConfig],
      useFactory: (config: SampleConfig) => ({
        exposeReason: config.NODE_ENV !== 'production',
        checks: redisUrlOf(config) ? { redis: RedisReadiness } : undefined,
      }),
    }),
    SessionModule.forRoot({
      inject: [SampleConfig],
      secret: (config: SampleConfig) => chooseSessionSecret(config).secret,
    }),
    // On a port of their own, which the pod's annotations point Prometheus to and the Service
    // does not expose.
    MetricsModule.forRoot({
      inject: [SampleConfig],
      useFactory: (config: SampleConfig) => ({ port: config.METRICS_PORT }),
    }),
    // The JSON API's writes (@RateLimit('api-writes')), counted in the application's own
    // database, so every replica spends the same budget.
    RateLimitModule.forRoot({
      store: 'postgres',
      inject: [SampleConfig],
      useFactory: (config: SampleConfig) => ({
        limits: { 'api-writes': { limit: config.API_WRITES_PER_MINUTE, windowS: 60 } },
      }),
    }),
    // Orders' confirmations and the daily summary, kept in the same database.
    JobsModule.forRoot(),
    // GET /openapi.json and GET /docs: the JSON API and the health endpoints (the HTML pages
    // are for browsers, not API clients).
    OpenApiModule.forRoot({
      title: 'Orders',
      version: '1.0.0',
      description: 'The orders of the keel sample application, as JSON.',
      include: (route) => route.path.startsWith('/api/') || route.path.startsWith('/health'),
    }),
  ],
  controllers: [OrderController, OrderApiController, LiveOrdersController],
  providers: [
    OrderService,
    OrderFeed,
    OrderJobs,
    StartupReport,
    {
      provide: API_TOKEN,
      useFactory: (config: SampleConfig) => config.API_TOKEN || undefined,
      inject: [SampleConfig],
    },
    { provide: RedisConnection, useFactory: redisConnectionFor, inject: [SampleConfig] },
  ],
})
export class AppModule {}
