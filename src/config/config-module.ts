import type { DynamicModule } from '../container/module-definition';
import { Module } from '../decorators/module';
import { loadConfig, type ConfigSchema } from './load-config';

/** What `ConfigModule.forRoot` reads: the schema class, and the dotenv file beside the environment. */
export interface ConfigModuleOptions<T extends object> {
  /** The configuration class, with class-validator rules and defaults as initialisers. */
  schema: ConfigSchema<T>;
  /** The dotenv file, read where it exists. Default: `.env` in the working directory. */
  envFile?: string;
}

/**
 * Validated configuration: at boot, builds the schema from the environment and `.env` (the
 * environment wins), converts and validates it, and provides the frozen instance in every module,
 * injected by its class. Invalid values stop the boot with `E_INVALID_CONFIG`.
 *
 * @example
 * @Module({ imports: [ConfigModule.forRoot({ schema: Env })] })
 * export class AppModule {}
 */
@Module({})
export class ConfigModule {
  /** The configuration `schema`, global. @example ConfigModule.forRoot({ schema: Env, envFile: '.env.local' }) */
  static forRoot<T extends object>(options: ConfigModuleOptions<T>): DynamicModule {
    const { schema, envFile } = options;
    return {
      module: ConfigModule,
      global: true,
      providers: [{ provide: schema, useFactory: () => loadConfig(schema, { envFile }) }],
      exports: [schema],
    };
  }
}
