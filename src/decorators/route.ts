import { MetadataKey } from '../metadata/keys';
import { appendMetadata } from '../metadata/reflection';
import type { HttpMethod } from '../routing/route';
import type { RouteMetadata } from '../routing/route-metadata';

/** Options of a method route decorator. */
export interface RouteOptions {
  /** The name `urlFor` knows the route by (`reports.show`); default `Controller.method`. */
  readonly name?: string;
}

/**
 * Builds the method decorator for one HTTP method; all route decorators come from here.
 *
 * @example
 * export const Search = createRouteDecorator('GET'); // @Search('find') find(ctx: Context) {}
 */
export function createRouteDecorator(
  method: HttpMethod,
): (path?: string, options?: RouteOptions) => MethodDecorator {
  return (path = '', options = {}) =>
    (prototype, property) => {
      const route: RouteMetadata = { method, path, property, name: options.name };
      appendMetadata(MetadataKey.routes, route, prototype.constructor);
    };
}

/**
 * Routes GET requests for `path` (relative to the controller's prefix) to this method.
 *
 * @example
 * @Get(':id') show(ctx: Context) { return { id: ctx.param('id') }; }
 */
export const Get = createRouteDecorator('GET');
/** Routes POST requests for `path` to this method. @example @Post() store(ctx: Context) {} */
export const Post = createRouteDecorator('POST');
/** Routes PUT requests for `path` to this method. @example @Put(':id') replace(ctx: Context) {} */
export const Put = createRouteDecorator('PUT');
/** Routes PATCH requests for `path` to this method. @example @Patch(':id') amend(ctx: Context) {} */
export const Patch = createRouteDecorator('PATCH');
/** Routes DELETE requests for `path` to this method. @example @Delete(':id') remove(ctx: Context) {} */
export const Delete = createRouteDecorator('DELETE');
/** Routes HEAD requests for `path` to this method. @example @Head() probe(ctx: Context) {} */
export const Head = createRouteDecorator('HEAD');
/** Routes OPTIONS requests for `path` to this method. @example @Options() describe(ctx: Context) {} */
export const Options = createRouteDecorator('OPTIONS');
/** Routes requests of every method for `path` to this method. @example @All('ping') ping() {} */
export const All = createRouteDecorator('ALL');
