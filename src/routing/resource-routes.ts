import type { Class } from '../container/token';
import { RoutingErrors } from '../errors/routing-errors';
import { MetadataKey } from '../metadata/keys';
import { declaredHooks } from '../hooks/declared-hooks';
import { joinPath } from './path';
import {
  RESOURCE_ACTIONS,
  RESOURCE_ROUTES,
  type ResourceAction,
  type ResourceOptions,
} from './resource-table';
import { createMethodHandler } from './handler-factory';
import { controllerTag, handlerDoc, returnsDoc } from './handler-doc';
import type { RouteDefinition } from './route';
import type { RouteDoc } from './route-doc';

/** What a resource needs to become routes. */
export interface ResourceSpec {
  readonly path: string;
  readonly isApi: boolean;
  readonly options: ResourceOptions;
  /** The controller instance whose methods are the actions. */
  readonly instance: object;
  /** Builds the controller's hook and pipe classes through DI in its module. */
  readonly resolve: <T>(type: Class<T>) => T;
  /** The application's `prefix`, which the paths go under and the names leave out. */
  readonly mount?: string;
}

/**
 * The routes of a resource, in the table's order, narrowed by `only`/`except`; a selected action
 * the controller lacks is a boot error.
 */
export function resourceRoutes(spec: ResourceSpec): RouteDefinition[] {
  const { only, except } = spec.options;
  const controller = spec.instance.constructor.name;
  for (const action of [...(only ?? []), ...(except ?? [])]) {
    if (!RESOURCE_ACTIONS.includes(action))
      throw RoutingErrors.unknownAction(controller, action, RESOURCE_ACTIONS);
  }
  const base = joinPath(spec.path);
  // Named for the resource's own path: `urlFor('orders.show')` holds whatever the prefix.
  const prefix = base.slice(1).replaceAll('/', '.');
  const mounted = joinPath(spec.mount ?? '', base);
  const kind = spec.isApi ? 'an API resource' : 'a resource';

  return RESOURCE_ROUTES.filter((route) => !spec.isApi || route.api)
    .filter((route) => (only ? only.includes(route.action) : true) && !(except ?? []).includes(route.action))
    .flatMap((route) => {
      const path = joinPath(mounted, route.suffix);
      const handler = createMethodHandler({ ...spec, property: route.action, path });
      if (!handler) {
        throw RoutingErrors.missingAction(
          controller,
          kind,
          mounted,
          route.action,
          `${route.methods.join('/')} ${path}`,
        );
      }
      const hooks = declaredHooks(
        spec.instance.constructor as Class,
        route.action,
        spec.resolve,
        routeDefaults(spec.isApi),
      );
      const doc = { ...resourceDoc(spec, route.action, controller), ...returnsDoc(hooks.metadata) };
      const patchDoc = patchInputDoc(spec, doc);
      return route.methods.map((method) => ({
        method,
        path,
        handler,
        hooks,
        name: `${prefix}.${route.action}`,
        source: `${controller}.${route.action}`,
        doc: method === 'PATCH' ? patchDoc : doc,
      }));
    });
}

const BINDING_ACTIONS: readonly ResourceAction[] = ['store', 'update'];
const ITEM_ACTIONS: readonly ResourceAction[] = ['store', 'show', 'update'];

// A `@Body()` parameter wins over the resource's `input`: it is what the action really binds.
function resourceDoc(spec: ResourceSpec, action: ResourceAction, controller: string): RouteDoc {
  const { input, output } = spec.options;
  const outputs = typeof output === 'function' ? { item: output } : (output ?? {});
  const declared = handlerDoc(spec.instance, action);
  return {
    tag: controllerTag(controller),
    action,
    isApi: spec.isApi,
    body: declared.body ?? (BINDING_ACTIONS.includes(action) && !declared.bodySchema ? input : undefined),
    bodySchema: declared.bodySchema,
    querySchema: declared.querySchema,
    output: action === 'index' ? outputs.list : ITEM_ACTIONS.includes(action) ? outputs.item : undefined,
    query: declared.query,
    queryClass: declared.queryClass,
    params: declared.params,
  };
}

// PATCH binds `patchInput` where the resource names one (and the action declares no `@Body()`).
function patchInputDoc(spec: ResourceSpec, doc: RouteDoc): RouteDoc {
  const { input, patchInput } = spec.options;
  return patchInput && doc.body === input ? { ...doc, body: patchInput } : doc;
}

// An API resource answers clients that send no CSRF token: its routes skip the check unless the
// class or the method says otherwise.
const API_DEFAULTS: ReadonlyMap<unknown, unknown> = new Map([[MetadataKey.skipCsrf, true]]);
const NO_DEFAULTS: ReadonlyMap<unknown, unknown> = new Map();

/** The metadata an API resource's routes (or other routes) have unless they say otherwise. @example routeDefaults(true) */
export function routeDefaults(isApi: boolean): ReadonlyMap<unknown, unknown> {
  return isApi ? API_DEFAULTS : NO_DEFAULTS;
}
