import type { Class } from '../container/token';

/** The seven conventional actions of a resource controller. */
export type ResourceAction = 'index' | 'create' | 'store' | 'show' | 'edit' | 'update' | 'destroy';

/** The classes a resource's JSON answers have: one item (store, show, update), and the index's. */
export interface ResourceOutputs {
  readonly item?: Class;
  readonly list?: Class;
}

/**
 * Narrows a resource to some of its actions (the routes keep the table's order), and names the
 * classes its OpenAPI document shows: the body `store` and `update` bind (`input`; `patchInput` for
 * PATCH where it differs), and the answers (`output`: a class for one item, or `{ item, list }`).
 */
export interface ResourceOptions {
  only?: readonly ResourceAction[];
  except?: readonly ResourceAction[];
  input?: Class;
  /** The body `update` binds for PATCH when it differs from `input`: `PartialType(input)`, usually. */
  patchInput?: Class;
  output?: Class | ResourceOutputs;
}

interface ResourceRoute {
  readonly action: ResourceAction;
  readonly methods: readonly ('GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE')[];
  /** Appended to the resource path. */
  readonly suffix: string;
  /** Part of an API resource too (API resources have no HTML forms: no create, no edit). */
  readonly api: boolean;
}

/**
 * The resource convention as data, in registration order: `/x/create` comes before `/x/:id`
 * so that it is never captured as an id.
 */
export const RESOURCE_ROUTES: readonly ResourceRoute[] = [
  { action: 'index', methods: ['GET'], suffix: '', api: true },
  { action: 'create', methods: ['GET'], suffix: '/create', api: false },
  { action: 'store', methods: ['POST'], suffix: '', api: true },
  { action: 'show', methods: ['GET'], suffix: '/:id', api: true },
  { action: 'edit', methods: ['GET'], suffix: '/:id/edit', api: false },
  { action: 'update', methods: ['PUT', 'PATCH'], suffix: '/:id', api: true },
  { action: 'destroy', methods: ['DELETE'], suffix: '/:id', api: true },
];

export const RESOURCE_ACTIONS: readonly ResourceAction[] = RESOURCE_ROUTES.map((route) => route.action);
