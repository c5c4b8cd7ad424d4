import { InjectionToken, Module, type DynamicModule } from 'keel';
import type { DatabaseTarget } from './database-target';

/** The database the application runs on, injectable as `DATABASE_TARGET`. */
export const DATABASE_TARGET = new InjectionToken<DatabaseTarget>('DatabaseTarget');

/** Holds the database target, so that its shutdown hook (the embedded server's stop) runs. */
@Module({})
export class DatabaseTargetModule {
  static of(target: DatabaseTarget): DynamicModule {
    return {
      module: DatabaseTargetModule,
      providers: [{ provide: DATABASE_TARGET, useValue: target }],
      exports: [DATABASE_TARGET],
    };
  }
}
