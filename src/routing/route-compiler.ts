import type { Class } from '../container/token';
import { Errors } from '../errors';
import { MetadataKey } from '../metadata/keys';
import { getOwnMetadata } from '../metadata/reflection';
import { createMethodHandler } from './handler-factory';
import { compareSpecificity, joinPath } from './path';
import { resourceRoutes } from './resource-routes';
import type { RouteDefinition } from './route';
import type { ControllerMetadata, RouteMetadata } from './route-metadata';

/**
 * Reads a controller's metadata, once, and compiles it into routes with prepared handlers: a
 * resource's conventional routes first, then its method-decorated routes, static paths before
 * parameters whatever order they were declared in.
 */
export function compileController(type: Class, instance: object): RouteDefinition[] {
  const metadata = getOwnMetadata<ControllerMetadata>(MetadataKey.controller, type);
  if (!metadata) throw Errors.notAController('(router)', type);
  const prefix = metadata.kind === 'resource' ? metadata.path : metadata.prefix;
  const conventional =
    metadata.kind === 'resource'
      ? resourceRoutes({
          path: metadata.path,
          isApi: metadata.api,
          options: metadata.options,
          controller: type.name,
          handlerFor: (action) => createMethodHandler(instance, action),
        })
      : [];
  return [...conventional, ...decoratedRoutes(type, instance, prefix)];
}

function decoratedRoutes(type: Class, instance: object, prefix: string): RouteDefinition[] {
  const declared = getOwnMetadata<readonly RouteMetadata[]>(MetadataKey.routes, type) ?? [];
  const routes = declared.map((route) => {
    const source = `${type.name}.${String(route.property)}`;
    const handler = createMethodHandler(instance, route.property);
    if (!handler) throw Errors.invalidRoute(source, 'the decorated member is not a method');
    return { method: route.method, path: joinPath(prefix, route.path), handler, name: source, source };
  });
  return routes.sort((a, b) => compareSpecificity(a.path, b.path));
}
