import { ConfigModule, DatabaseModule, HealthModule, Module, type DynamicModule } from 'keel';
import { Env } from './config';
import type { Database } from './database';
import { HomeController } from './http/controllers/home';

@Module({
  imports: [ConfigModule.forRoot({ schema: Env }), HealthModule.forRoot()],
  controllers: [HomeController],
})
export class AppModule {
  /** The application on `database`: it connects in the background after boot, and retries. */
  static on(database: Pick<Database, 'url' | 'server'>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        DatabaseModule.forRoot(
          { type: 'postgres', url: database.url, entities: [] },
          { server: database.server },
        ),
      ],
    };
  }
}
