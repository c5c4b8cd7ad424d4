import { LifecycleErrors } from '../errors/lifecycle-errors';
import { joinPath } from '../routing/path';
import type { RouteInfo } from '../http/route-info';
import type { RouteDefinition } from '../routing/route';
import type { OpenApiInfo } from './openapi-document';

/** What `OpenApiModule.forRoot` takes: the document's title and version are required. */
export interface OpenApiOptions extends OpenApiInfo {
  /** Where the document is served. Default: `/openapi.json`. */
  path?: string;
  /** Where Swagger UI is served. Default: `/docs`. */
  docsPath?: string;
  /** Which routes the document describes. Default: every route but the documentation's own. */
  include?: (route: RouteInfo) => boolean;
}

/** {@link OpenApiOptions} with every default filled in. */
export interface OpenApiSettings {
  readonly info: OpenApiInfo;
  readonly path: string;
  readonly docsPath: string;
  readonly include: (route: RouteDefinition) => boolean;
}

/** Fills in the defaults of {@link OpenApiOptions}; an option of the wrong kind is a boot error. @example resolveOpenApiOptions({ title: 'Orders', version: '1.0.0' }) */
export function resolveOpenApiOptions(options: OpenApiOptions): OpenApiSettings {
  const { title, version, description, include = () => true } = options;
  const text = (name: string, value: unknown, example: string): string => {
    if (typeof value !== 'string' || value.trim() === '')
      throw LifecycleErrors.invalidOption(`openapi ${name}`, value, example);
    return value;
  };
  text('title', title, "a title such as 'Orders'");
  text('version', version, "a version such as '1.0.0'");
  if (description !== undefined) text('description', description, 'text');
  if (typeof include !== 'function')
    throw LifecycleErrors.invalidOption('openapi include', include, 'a function of a route');
  const path = joinPath(text('path', options.path ?? '/openapi.json', "a path such as '/openapi.json'"));
  const docsPath = joinPath(text('docsPath', options.docsPath ?? '/docs', "a path such as '/docs'"));
  return { info: { title, version, ...(description ? { description } : {}) }, path, docsPath, include };
}
