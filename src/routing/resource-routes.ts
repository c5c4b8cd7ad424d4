import { Errors } from '../errors';
import { joinPath } from './path';
import {
  RESOURCE_ACTIONS,
  RESOURCE_ROUTES,
  type ResourceAction,
  type ResourceOptions,
} from './resource-table';
import type { RouteDefinition, RouteHandler } from './route';

/** What a resource needs to become routes. */
export interface ResourceSpec {
  readonly path: string;
  readonly isApi: boolean;
  readonly options: ResourceOptions;
  /** The controller's name, for route sources and error messages. */
  readonly controller: string;
  readonly handlerFor: (action: ResourceAction) => RouteHandler | undefined;
}

/**
 * The routes of a resource, in the table's order, narrowed by `only`/`except`; a selected action
 * the controller lacks is a boot error.
 */
export function resourceRoutes(spec: ResourceSpec): RouteDefinition[] {
  const { only, except } = spec.options;
  for (const action of [...(only ?? []), ...(except ?? [])]) {
    if (!RESOURCE_ACTIONS.includes(action))
      throw Errors.unknownAction(spec.controller, action, RESOURCE_ACTIONS);
  }
  const base = joinPath(spec.path);
  const prefix = base.slice(1).replaceAll('/', '.');
  const kind = spec.isApi ? 'an API resource' : 'a resource';

  return RESOURCE_ROUTES.filter((route) => !spec.isApi || route.api)
    .filter((route) => (only ? only.includes(route.action) : true) && !(except ?? []).includes(route.action))
    .flatMap((route) => {
      const path = joinPath(base, route.suffix);
      const handler = spec.handlerFor(route.action);
      if (!handler) {
        throw Errors.missingAction(
          spec.controller,
          kind,
          base,
          route.action,
          `${route.methods.join('/')} ${path}`,
        );
      }
      return route.methods.map((method) => ({
        method,
        path,
        handler,
        name: `${prefix}.${route.action}`,
        source: `${spec.controller}.${route.action}`,
      }));
    });
}
