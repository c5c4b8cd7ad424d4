import {
  AuthModule,
  AuthTables1764547200000,
  ConfigModule,
  DatabaseModule,
  HealthModule,
  JobsModule,
  MetricsModule,
  Module,
  OpenApiModule,
  RateLimitModule,
  RealtimeModule,
  RealtimeTables1764633600000,
  SessionModule,
  apiTokens,
  session,
} from 'keel';
import { OperatorAccount } from './auth/operator';
import { RedisConnection, redisUrlOf } from './cache/redis-connection';
import { RedisModule } from './cache/redis-module';
import { RedisReadiness } from './cache/redis-readiness';
import { SampleConfig } from './config/sample-config';
import { POOL_SIZE, chooseDatabase } from './database/choose-database';
import { ApiTokenController } from './http/controllers/api-tokens';
import { LoginController } from './http/controllers/login';
import { OrderController } from './http/controllers/order';
import { OrderApiController } from './http/controllers/order-api';
import { OrderExportController } from './http/controllers/order-export';
import { LiveOrdersGateway } from './http/gateways/live-orders-gateway';
import { chooseSessionSecret } from './http/session-secret';
import { CreateOrders1732320000000 } from './migrations/1732320000000-create-orders';
import { OrderJobs } from './orders/order-jobs';
import { Order } from './orders/order.entity';
import { OrderService } from './orders/order-service';
import { liveOrdersTransport } from './orders/live-orders-transport';
import { LiveOrdersController } from './http/controllers/live-orders';
import { StartupReport } from './startup-report';
import { AddOrderInternalNote1795814984841 } from './migrations/1795814984841-add-order-internal-note';

/**
 * The sample, configured by `SampleConfig` (the environment and `.env`, checked at boot): reads
 * open to anyone, writes to its operator (`ADMIN_EMAIL`), logged in on the HTML pages or holding an
 * API token; its pages' sessions signed with `SESSION_SECRET`, migrations run as it connects, in
 * the background.
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
          // keel's own tables (logins and API tokens, live events), then the sample's
          migrations: [
            AuthTables1764547200000,
            RealtimeTables1764633600000,
            CreateOrders1732320000000,
            AddOrderInternalNote1795814984841,
          ],
          migrationsRun: true,
          poolSize: POOL_SIZE,
        };
      },
    }),
    DatabaseModule.forFeature([Order]),
    RedisModule,
    // The live list's channel, shared by every replica through the database, or through Redis
    // with REALTIME_VIA=redis.
    RealtimeModule.forRoot({ inject: [SampleConfig, RedisConnection], useFactory: liveOrdersTransport }),
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
    // The JSON API's writes (@RateLimit('api-writes')) and the logins (@RateLimit('logins')), counted in the application's own
    // database, so every replica spends the same budget.
    RateLimitModule.forRoot({
      store: 'postgres',
      inject: [SampleConfig],
      useFactory: (config: SampleConfig) => ({
        limits: {
          'api-writes': { limit: config.API_WRITES_PER_MINUTE, windowS: 60 },
          logins: { limit: config.LOGINS_PER_MINUTE, windowS: 60 },
        },
      }),
    }),
    // Every page and route needs the operator, logged in (`/login`), unless it is @Public(); the
    // JSON API's writes take a token from `POST /api/tokens` instead.
    AuthModule.forRoot({
      default: 'session',
      strategies: { session: session(), token: apiTokens() },
      user: {
        inject: [OperatorAccount],
        useFactory: (operator: OperatorAccount) => (claims) => operator.find(claims.sub),
      },
    }),
    // Orders' confirmations and the daily summary, kept in the same database.
    JobsModule.forRoot(),
    // GET /openapi.json and GET /docs: the JSON API and the health endpoints (the HTML pages
    // are for browsers, not API clients).
    OpenApiModule.forRoot({
      title: 'Orders',
      version: '1.0.0',
      description: 'The orders of the keel sample application, as JSON.',
      // The orders' routes and the probes. `/api/tokens` stays out: its 401 for wrong credentials
      // comes from the handler, which the document cannot state (sample/README.md describes it).
      include: (route) => route.path.startsWith('/api/orders') || route.path.startsWith('/health'),
    }),
  ],
  controllers: [
    OrderController,
    OrderApiController,
    OrderExportController,
    LiveOrdersController,
    LoginController,
    ApiTokenController,
  ],
  providers: [OrderService, OrderJobs, StartupReport, OperatorAccount, LiveOrdersGateway],
})
export class AppModule {}
