import { DatabaseModule, HealthModule, Module, type DynamicModule } from 'keel';
import { DatabaseTargetModule } from './database/database-target-module';
import type { DatabaseTarget } from './database/database-target';
import { POOL_SIZE } from './database/open-database';
import { API_TOKEN } from './http/api-token-guard';
import { OrderController } from './http/controllers/order';
import { OrderApiController } from './http/controllers/order-api';
import { CreateOrders1732320000000 } from './migrations/1732320000000-create-orders';
import { Order } from './orders/order.entity';
import { OrderService } from './orders/order-service';

@Module({})
export class AppModule {
  /**
   * The application on `database`, its JSON API's writes open to `apiToken`: migrations run as it
   * connects, in the background.
   */
  static on(database: DatabaseTarget, settings: { apiToken: string | undefined }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // First, so that its shutdown hook runs last: the embedded server outlives the pool.
        DatabaseTargetModule.of(database),
        DatabaseModule.forRoot({
          type: 'postgres',
          url: database.url,
          entities: [Order],
          migrations: [CreateOrders1732320000000],
          migrationsRun: true,
          poolSize: POOL_SIZE,
        }),
        DatabaseModule.forFeature([Order]),
        HealthModule.forRoot(),
      ],
      controllers: [OrderController, OrderApiController],
      providers: [OrderService, { provide: API_TOKEN, useValue: settings.apiToken }],
    };
  }
}
