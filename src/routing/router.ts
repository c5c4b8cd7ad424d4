import type { Class } from '../container/token';
import { joinPath } from './path';
import { compileController } from './route-compiler';
import { resourceRoutes } from './resource-routes';
import type { ResourceOptions } from './resource-table';
import type { HttpMethod, RouteDefinition, RouteHandler } from './route';
import type { RouteMatch } from '../http/dispatcher';
import { routeEndpoint, type EndpointSettings } from './route-endpoint';
import { RouteTable } from './route-table';
import { versionedRoutes } from './route-versions';
import type { Versioning } from '../http/versioning';
import type { RouteParams, RouteQuery } from '../http/route-info';
import type { RouteUrls } from './route-urls';

/** What the router is handed at boot: DI for controller classes, and what each route's endpoint is prepared with. */
export interface RouterDependencies {
  readonly resolve: <T>(type: Class<T>) => T;
  readonly endpoints: EndpointSettings;
  /** The named routes' paths, which `urlFor` fills in. */
  readonly urls: RouteUrls;
  /** How requests name an API version (option `versioning`); undefined: `@Version` is a boot error. */
  readonly versioning?: Versioning | undefined;
  /** The application's `prefix`, which controllers and resources go under; `''` for none. */
  readonly prefix: string;
}

/** Options of a function controller's route. */
export interface FunctionRouteOptions {
  /** The name `urlFor` knows it by; default `METHOD /path`. */
  readonly name?: string;
}

/**
 * The application's routes: function controllers, resources, and the compiled controllers, kept in
 * one {@link RouteTable} that the dispatcher, the 404/405 answers and `framework routes` all read.
 * Routes may be added at any time, before or after `listen()`.
 *
 * @example
 * app.router.get('/', (ctx) => ctx.html(200, 'welcome/index.html'));
 * app.router.resource('/photos', PhotoController);
 */
export class Router {
  readonly #dependencies: RouterDependencies;
  readonly #table: RouteTable;

  /** @internal the application makes its router */
  constructor(dependencies: RouterDependencies) {
    this.#dependencies = dependencies;
    const type = dependencies.versioning?.type;
    this.#table = new RouteTable({ constrainsVersions: type === 'header' || type === 'media' });
  }

  /** How requests name an API version, as the option `versioning` says. @internal the OpenAPI document reads it */
  get versioning(): Versioning | undefined {
    return this.#dependencies.versioning;
  }

  /** Routes GET `path` to `handler`. @example router.get('/hello', () => ({ hello: 'world' })) */
  get(path: string, handler: RouteHandler, options: FunctionRouteOptions = {}): this {
    return this.#addFunction('GET', path, handler, options);
  }

  /** Routes POST `path` to `handler`. @example router.post('/echo', (ctx) => ctx.req.body) */
  post(path: string, handler: RouteHandler, options: FunctionRouteOptions = {}): this {
    return this.#addFunction('POST', path, handler, options);
  }

  /** Routes PUT `path` to `handler`. @example router.put('/items/:id', replaceItem) */
  put(path: string, handler: RouteHandler, options: FunctionRouteOptions = {}): this {
    return this.#addFunction('PUT', path, handler, options);
  }

  /** Routes PATCH `path` to `handler`. @example router.patch('/items/:id', amendItem) */
  patch(path: string, handler: RouteHandler, options: FunctionRouteOptions = {}): this {
    return this.#addFunction('PATCH', path, handler, options);
  }

  /** Routes DELETE `path` to `handler`. @example router.delete('/items/:id', removeItem) */
  delete(path: string, handler: RouteHandler, options: FunctionRouteOptions = {}): this {
    return this.#addFunction('DELETE', path, handler, options);
  }

  /**
   * Registers the seven resource routes of `controller` (a class, resolved through DI, or an
   * instance) under `path`, itself under the application's `prefix`. @example router.resource('/photos', PhotoController, { except: ['destroy'] })
   */
  resource(path: string, controller: Class | object, options: ResourceOptions = {}): this {
    return this.#addResource(path, controller, options, false);
  }

  /** Registers the five API resource routes (no create, no edit). @example router.apiResource('/api/photos', PhotoController) */
  apiResource(path: string, controller: Class | object, options: ResourceOptions = {}): this {
    return this.#addResource(path, controller, options, true);
  }

  /**
   * Adds the routes of a decorated controller class (`@Controller`, `@Resource`, `@ApiResource`),
   * built through DI with its constructor's dependencies, under the application's `prefix`. @example router.controller(OrderController)
   */
  controller(type: Class): this {
    const { resolve } = this.#dependencies;
    return this.add(...compileController(type, resolve(type) as object, resolve, this.#dependencies.prefix));
  }

  /**
   * Adds compiled routes, all or none: a route with the same method and path as another is a
   * boot error naming both. @internal keel's modules add their routes through it
   */
  add(...declared: RouteDefinition[]): this {
    const { endpoints, versioning, prefix } = this.#dependencies;
    const routes = versionedRoutes(declared, { versioning, prefix });
    this.#table.add(...routes.map((route) => ({ route, endpoint: routeEndpoint(route, endpoints) })));
    this.#dependencies.urls.add(routes);
    return this;
  }

  /**
   * The path of the route named `name`, parameters percent-encoded, `query` appended; an unknown
   * name or a missing parameter throws an error naming it.
   * @example router.urlFor('orders.show', { id: 7 }) // '/orders/7'
   */
  urlFor(name: string, params?: RouteParams, query?: RouteQuery): string {
    return this.#dependencies.urls.urlFor(name, params, query);
  }

  /** Every route, in registration order. @internal `framework routes` and the OpenAPI document read it */
  routes(): readonly RouteDefinition[] {
    return this.#table.routes();
  }

  /** The methods that have a route for `url`, for a 405's `Allow` header; empty when none. @internal the dispatcher's */
  allowedMethods(url: string, version?: string): string[] {
    return this.#table.allowedMethods(url, version);
  }

  /** The route for `method` and `url`, with its parameters. @internal the dispatcher's lookup */
  find(method: string, url: string, version?: string): RouteMatch | undefined {
    return this.#table.find(method, url, version);
  }

  #addFunction(method: HttpMethod, path: string, handler: RouteHandler, options: FunctionRouteOptions): this {
    const source = handler.name || `function at ${method} ${path}`;
    return this.add({
      method,
      path: joinPath(path),
      handler,
      name: options.name ?? `${method} ${joinPath(path)}`,
      source,
    });
  }

  #addResource(path: string, controller: Class | object, options: ResourceOptions, isApi: boolean): this {
    const instance =
      typeof controller === 'function'
        ? (this.#dependencies.resolve(controller as Class) as object)
        : controller;
    const { resolve, prefix } = this.#dependencies;
    const routes = resourceRoutes({ path, isApi, options, instance, resolve, mount: prefix });
    return this.add(...routes);
  }
}
