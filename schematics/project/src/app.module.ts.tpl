import { ConfigModule, DatabaseModule, HealthModule, MetricsModule, Module, type DynamicModule } from 'keel';
import { Env } from './config';
import type { Database } from './database';
import { HomeController } from './http/controllers/home';

@Module({
  imports: [ConfigModule.forRoot({ schema: Env }), HealthModule.forRoot()],
  controllers: [HomeController],
})
export class AppModule {
  /**
   * The application on `database`: it connects in the background once it serves, and retries. Its
   * Prometheus metrics are served on `metrics.port`, apart from the public port.
   */
  static on(database: Pick<Database, 'url' | 'server'>, metrics: { port: number }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        DatabaseModule.forRoot(
          { type: 'postgres', url: database.url, entities: [] },
          { server: database.server },
        ),
        MetricsModule.forRoot({ port: metrics.port }),
      ],
    };
  }
}
