import { ConfigModule, DatabaseModule, HealthModule, MetricsModule, Module } from 'keel';
import { Env } from './config';
import { chooseDatabase } from './database';
import { HomeController } from './http/controllers/home';

/**
 * The application: its settings read once, from the environment and `.env`; its database connects
 * in the background once it serves, and retries; its Prometheus metrics are served on
 * `METRICS_PORT`, apart from the public port.
 */
@Module({
  imports: [
    ConfigModule.forRoot({ schema: Env }),
    DatabaseModule.forRoot({
      inject: [Env],
      useFactory: (env: Env) => {
        const { url, server } = chooseDatabase(env);
        return { type: 'postgres', url, entities: [], server };
      },
    }),
    MetricsModule.forRoot({ inject: [Env], useFactory: (env: Env) => ({ port: env.METRICS_PORT }) }),
    HealthModule.forRoot(),
  ],
  controllers: [HomeController],
})
export class AppModule {}
