import { DatabaseModule, HealthModule, Module, type DynamicModule } from 'keel';
import type { DatabaseTarget } from './database/database-target';
import { POOL_SIZE } from './database/open-database';
import { OrderController } from './http/controllers/order';
import { OrderApiController } from './http/controllers/order-api';
import { CreateOrders1732320000000 } from './migrations/1732320000000-create-orders';
import { Order } from './orders/order.entity';
import { OrderService } from './orders/order-service';

@Module({})
export class AppModule {
  /** The application on `database`: migrations run as it connects, in the background. */
  static on(database: DatabaseTarget): DynamicModule {
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
          // The embedded server outlives the pool.
          { onClosed: () => database.stop?.() },
        ),
        DatabaseModule.forFeature([Order]),
        HealthModule.forRoot(),
      ],
      controllers: [OrderController, OrderApiController],
      providers: [OrderService],
    };
  }
}
