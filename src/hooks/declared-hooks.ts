import type { Class } from '../container/token';
import type { MiddlewareEntry } from '../http/middleware';
import { MetadataKey } from '../metadata/keys';
import { getMetadata, getOwnMetadata, prototypeDeclaring } from '../metadata/reflection';
import type { CanActivate, ExceptionFilter, HookEntry, Interceptor } from './hook-types';

/**
 * What a controller's decorators ask of one route, read once at boot: its middleware, guards and
 * interceptors (class first, then method), its filters (method first, then class), its
 * `SetMetadata` values (the method's over the class's), and how to build hook classes in the
 * controller's module.
 */
export interface DeclaredHooks {
  readonly middleware: readonly MiddlewareEntry[];
  readonly guards: readonly HookEntry<CanActivate>[];
  readonly interceptors: readonly HookEntry<Interceptor>[];
  readonly filters: readonly HookEntry<ExceptionFilter>[];
  readonly metadata: ReadonlyMap<unknown, unknown>;
  readonly resolve: <T>(type: Class<T>) => T;
}

const NO_DEFAULTS: ReadonlyMap<unknown, unknown> = new Map();

/**
 * Reads the hooks declared for the method `property` of `type` and on the class itself; the
 * metadata is `defaults` (what the kind of route implies), overridden by the class's, then the method's.
 *
 * @example
 * const hooks = declaredHooks(OrderController, 'show', (type) => container.construct(type));
 */
export function declaredHooks(
  type: Class,
  property: string | symbol,
  resolve: <T>(type: Class<T>) => T,
  defaults: ReadonlyMap<unknown, unknown> = NO_DEFAULTS,
): DeclaredHooks {
  const prototype = prototypeDeclaring(type.prototype as object, property);
  const both = <T>(key: symbol): [readonly T[], readonly T[]] => [
    getMetadata<readonly T[]>(key, type) ?? [],
    getOwnMetadata<readonly T[]>(key, prototype, property) ?? [],
  ];
  const [classMiddleware, methodMiddleware] = both<MiddlewareEntry>(MetadataKey.middleware);
  const [classGuards, methodGuards] = both<HookEntry<CanActivate>>(MetadataKey.guards);
  const [classInterceptors, methodInterceptors] = both<HookEntry<Interceptor>>(MetadataKey.interceptors);
  const [classFilters, methodFilters] = both<HookEntry<ExceptionFilter>>(MetadataKey.filters);
  const classMetadata = getMetadata<ReadonlyMap<unknown, unknown>>(MetadataKey.custom, type);
  const methodMetadata = getOwnMetadata<ReadonlyMap<unknown, unknown>>(
    MetadataKey.custom,
    prototype,
    property,
  );
  return {
    middleware: [...classMiddleware, ...methodMiddleware],
    guards: [...classGuards, ...methodGuards],
    interceptors: [...classInterceptors, ...methodInterceptors],
    filters: [...methodFilters, ...classFilters],
    metadata: new Map([...defaults, ...(classMetadata ?? []), ...(methodMetadata ?? [])]),
    resolve,
  };
}
