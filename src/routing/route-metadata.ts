import type { HookEntry, PipeTransform } from '../hooks/hook-types';
import type { ArgumentSpec } from '../http/arguments';
export type { ParamSource } from '../http/arguments';
import type { ResourceOptions } from './resource-table';
import type { HttpMethod } from './route';

/** What `@Controller`, `@Resource` or `@ApiResource` records on a class. */
export type ControllerMetadata =
  | { readonly kind: 'controller'; readonly prefix: string }
  | {
      readonly kind: 'resource';
      readonly path: string;
      readonly api: boolean;
      readonly options: ResourceOptions;
    };

/** What a route decorator (`@Get(':id')`) records for one method. */
export interface RouteMetadata {
  readonly method: HttpMethod;
  readonly path: string;
  readonly property: string | symbol;
  /** The name `urlFor` knows the route by; default `Controller.method`. */
  readonly name?: string;
}

/** What a parameter decorator (`@Query('page', '1')`) records for one handler parameter. */
export interface ParamMetadata extends ArgumentSpec {
  /** Pipes the value goes through, in order, before the handler receives it. */
  readonly pipes?: readonly HookEntry<PipeTransform>[];
}
