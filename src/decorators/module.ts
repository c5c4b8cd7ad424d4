import type { ModuleMetadata } from '../container/module-definition';
import { MetadataKey } from '../metadata/keys';
import { defineMetadata } from '../metadata/reflection';

/**
 * Declares a module: the providers and controllers it owns, the modules it imports and what it
 * exports to its importers.
 *
 * @example
 * @Module({ imports: [HealthModule.forRoot()], controllers: [OrderController], providers: [OrderService] })
 * export class AppModule {}
 */
export function Module(metadata: ModuleMetadata): ClassDecorator {
  return (target) => defineMetadata(MetadataKey.module, metadata, target);
}

/**
 * Makes a module's exports visible to every module without importing it.
 *
 * @example
 * @Global() @Module({ providers: [Config], exports: [Config] }) export class ConfigModule {}
 */
export function Global(): ClassDecorator {
  return (target) => defineMetadata(MetadataKey.global, true, target);
}
