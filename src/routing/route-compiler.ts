import type { Class } from '../container/token';
import { MetadataKey } from '../metadata/keys';
import { getOwnMetadata } from '../metadata/reflection';
import { declaredHooks } from '../hooks/declared-hooks';
import { createMethodHandler } from './handler-factory';
import { controllerTag, handlerDoc, returnsDoc } from './handler-doc';
import { joinPath } from './path';
import { resourceRoutes, routeDefaults } from './resource-routes';
import type { RouteDefinition } from './route';
import type { RouteDoc } from './route-doc';
import type { ControllerMetadata, RouteMetadata } from './route-metadata';
import { ContainerErrors } from '../errors/container-errors';
import { RoutingErrors } from '../errors/routing-errors';

/**
 * Reads a controller's metadata, once, and compiles it into routes with prepared handlers: a
 * resource's conventional routes first, then its method-decorated routes (its own and those it
 * inherits), in declaration order; the router tries static paths before parameters. Every path
 * goes under `mount`, the application's `prefix`.
 */
export function compileController(
  type: Class,
  instance: object,
  resolve: <T>(type: Class<T>) => T,
  mount = '',
): RouteDefinition[] {
  const metadata = getOwnMetadata<ControllerMetadata>(MetadataKey.controller, type);
  if (!metadata) throw ContainerErrors.notAController('(router)', type);
  // Probes (health) are where the orchestrator's settings say, whatever the application's prefix.
  const under = isProbeController(type) ? '' : mount;
  const prefix = joinPath(under, metadata.kind === 'resource' ? metadata.path : metadata.prefix);
  const conventional =
    metadata.kind === 'resource'
      ? resourceRoutes({
          path: metadata.path,
          isApi: metadata.api,
          options: metadata.options,
          instance,
          resolve,
          mount: under,
        })
      : [];
  // Every route of an API resource, its own as well as the conventional ones, is one for clients.
  const isApi = metadata.kind === 'resource' && metadata.api;
  return [...conventional, ...decoratedRoutes(type, instance, { prefix, isApi }, resolve)];
}

function isProbeController(type: Class): boolean {
  const custom = getOwnMetadata<ReadonlyMap<unknown, unknown>>(MetadataKey.custom, type);
  return custom?.get(MetadataKey.probeRoute) === true;
}

function decoratedRoutes(
  type: Class,
  instance: object,
  { prefix, isApi }: { readonly prefix: string; readonly isApi: boolean },
  resolve: <T>(type: Class<T>) => T,
): RouteDefinition[] {
  return inheritedRouteMetadata(type).map((route) => {
    const source = `${type.name}.${String(route.property)}`;
    const path = joinPath(prefix, route.path);
    const handler = createMethodHandler({ instance, property: route.property, path, resolve });
    if (!handler) throw RoutingErrors.invalidRoute(source, 'the decorated member is not a method');
    const hooks = declaredHooks(type, route.property, resolve, routeDefaults(isApi));
    const answers = hooks.metadata.get(MetadataKey.routeAnswers) as RouteDoc['answers'];
    const isEventStream = hooks.metadata.has(MetadataKey.eventStream);
    const doc = {
      tag: controllerTag(type.name),
      ...handlerDoc(instance, route.property),
      answers,
      ...returnsDoc(hooks.metadata),
      ...(isEventStream ? { isEventStream } : {}),
    };
    return { method: route.method, path, handler, name: route.name ?? source, source, hooks, doc };
  });
}

// Base classes first; a method a subclass decorates again replaces the routes its parent gave it.
function inheritedRouteMetadata(type: Class): RouteMetadata[] {
  const byProperty = new Map<string | symbol, RouteMetadata[]>();
  for (const owner of classChain(type)) {
    const own = getOwnMetadata<readonly RouteMetadata[]>(MetadataKey.routes, owner) ?? [];
    const redeclared = new Set(own.map((route) => route.property));
    for (const property of redeclared) byProperty.set(property, []);
    for (const route of own) byProperty.get(route.property)?.push(route);
  }
  return [...byProperty.values()].flat();
}

function classChain(type: Class): Class[] {
  const chain: Class[] = [];
  for (let owner: unknown = type; typeof owner === 'function' && owner !== Function.prototype;) {
    chain.unshift(owner as Class);
    owner = Object.getPrototypeOf(owner);
  }
  return chain;
}
