import type { Class } from '../container/token';
import type { HookEntry, PipeTransform } from '../hooks/hook-types';
import type { Context } from '../http/context';
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

/** The request reads a handler parameter can be decorated with. */
export type ParamSource = 'param' | 'query' | 'form' | 'body' | 'ctx' | 'custom';

/** What a parameter decorator (`@Query('page', '1')`) records for one handler parameter. */
export interface ParamMetadata {
  readonly index: number;
  readonly source: ParamSource;
  readonly name?: string;
  readonly fallback?: string;
  /** For `@Body(Class)`: the class to bind into; otherwise the parameter's declared type. */
  readonly type?: Class;
  /** Pipes the value goes through, in order, before the handler receives it. */
  readonly pipes?: readonly HookEntry<PipeTransform>[];
  /** For decorators made by `createParamDecorator`: what reads the value, and the decorator's argument. */
  readonly read?: (ctx: Context, data: unknown) => unknown;
  readonly data?: unknown;
}
