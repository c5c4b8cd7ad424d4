import type { Provider } from './provider';
import type { Class, Token } from './token';

/** What `@Module()` records: the module's providers, controllers, imports and exports. */
export interface ModuleMetadata {
  imports?: readonly ModuleImport[];
  controllers?: readonly Class[];
  providers?: readonly Provider[];
  /** Tokens this module provides or imports, or imported modules to re-export whole. */
  exports?: readonly (Token | ModuleImport)[];
}

/**
 * A module built at run time, the shape `forRoot()`/`forFeature()` return.
 *
 * @example
 * static forRoot(options: Options): DynamicModule {
 *   return { module: ConfigModule, providers: [{ provide: OPTIONS, useValue: options }], exports: [OPTIONS] };
 * }
 */
export interface DynamicModule extends ModuleMetadata {
  module: Class;
  global?: boolean;
}

/** An entry of `imports`: a decorated module class or a dynamic module. */
export type ModuleImport = Class | DynamicModule;

/** Tells a dynamic module from a class or a token. */
export function isDynamicModule(value: unknown): value is DynamicModule {
  return typeof value === 'object' && value !== null && typeof (value as DynamicModule).module === 'function';
}
