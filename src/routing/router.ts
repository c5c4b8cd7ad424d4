import express, { type RequestHandler } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import type { Class } from '../container/token';
import { Errors } from '../errors';
import type { ApplicationStatus } from '../lifecycle/application-status';
import type { Logger } from '../logging/logger';
import { compareSpecificity, joinPath, routeShape } from './path';
import { resourceRoutes } from './resource-routes';
import type { ResourceOptions } from './resource-table';
import type { HttpMethod, RouteDefinition, RouteHandler } from './route';

/**
 * What the router needs from the application: DI for controller classes, the HTTP adapter, and
 * what route sets added through it (health routes) read: the application's status and logger.
 */
export interface RouterDependencies {
  readonly resolve: <T>(type: Class<T>) => T;
  readonly adapt: (route: RouteDefinition) => RequestHandler;
  readonly status: ApplicationStatus;
  readonly logger: Logger;
}

interface RegisteredRoute {
  readonly route: RouteDefinition;
  readonly handler: RequestHandler;
  readonly matches: MatchFunction<object>;
}

/**
 * The application's routes: function controllers, resources, and the compiled controllers. Routes
 * may be added at any time; the Express dispatcher is rebuilt on the next request after a change,
 * with static segments ordered before parameters.
 *
 * @example
 * app.router.get('/', (ctx) => ctx.html(200, 'welcome/index.html'));
 * app.router.resource('/photos', PhotoController);
 */
export class Router {
  readonly #dependencies: RouterDependencies;
  readonly #registered: RegisteredRoute[] = [];
  readonly #byShape = new Map<string, RouteDefinition>();
  #dispatcher: express.Router | undefined;

  constructor(dependencies: RouterDependencies) {
    this.#dependencies = dependencies;
  }

  /** The status of the application this router serves. @example router.status.isShuttingDown */
  get status(): ApplicationStatus {
    return this.#dependencies.status;
  }

  /** The logger of the application this router serves. @example router.logger.info({}, 'ready') */
  get logger(): Logger {
    return this.#dependencies.logger;
  }

  /** Routes GET `path` to `handler`. @example router.get('/hello', () => ({ hello: 'world' })) */
  get(path: string, handler: RouteHandler): this {
    return this.#addFunction('GET', path, handler);
  }

  /** Routes POST `path` to `handler`. @example router.post('/echo', (ctx) => ctx.req.body) */
  post(path: string, handler: RouteHandler): this {
    return this.#addFunction('POST', path, handler);
  }

  /** Routes PUT `path` to `handler`. @example router.put('/items/:id', replaceItem) */
  put(path: string, handler: RouteHandler): this {
    return this.#addFunction('PUT', path, handler);
  }

  /** Routes PATCH `path` to `handler`. @example router.patch('/items/:id', amendItem) */
  patch(path: string, handler: RouteHandler): this {
    return this.#addFunction('PATCH', path, handler);
  }

  /** Routes DELETE `path` to `handler`. @example router.delete('/items/:id', removeItem) */
  delete(path: string, handler: RouteHandler): this {
    return this.#addFunction('DELETE', path, handler);
  }

  /**
   * Registers the seven resource routes of `controller` (a class, resolved through DI, or an
   * instance) under `path`. @example router.resource('/photos', PhotoController, { except: ['destroy'] })
   */
  resource(path: string, controller: Class | object, options: ResourceOptions = {}): this {
    return this.#addResource(path, controller, options, false);
  }

  /** Registers the five API resource routes (no create, no edit). @example router.apiResource('/api/photos', PhotoController) */
  apiResource(path: string, controller: Class | object, options: ResourceOptions = {}): this {
    return this.#addResource(path, controller, options, true);
  }

  /**
   * Adds compiled routes, all or none: a route with the same method and path as another is a
   * boot error naming both.
   */
  add(...routes: RouteDefinition[]): this {
    const batch = new Map<string, RouteDefinition>();
    for (const route of routes) {
      const key = `${route.method} ${routeShape(route.path)}`;
      const existing = this.#byShape.get(key) ?? batch.get(key);
      if (existing) throw Errors.routeConflict(route.method, route.path, existing.source, route.source);
      batch.set(key, route);
    }
    const entries = routes.map((route) => ({
      route,
      handler: this.#dependencies.adapt(route),
      matches: matcher(route),
    }));
    for (const [key, route] of batch) this.#byShape.set(key, route);
    this.#registered.push(...entries);
    this.#dispatcher = undefined;
    return this;
  }

  /** Every route, in registration order. */
  routes(): readonly RouteDefinition[] {
    return this.#registered.map((entry) => entry.route);
  }

  /** The methods that have a route for `path`, for a 405's `Allow` header; empty when none. */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const { route, matches } of this.#registered) {
      if (!matches(path)) continue;
      methods.add(route.method);
      if (route.method === 'GET') methods.add('HEAD');
    }
    return [...methods];
  }

  /** The Express middleware that dispatches to the routes. */
  readonly dispatch: RequestHandler = (req, res, next) => {
    this.#dispatcher ??= this.#buildDispatcher();
    this.#dispatcher(req, res, next);
  };

  #buildDispatcher(): express.Router {
    const dispatcher = express.Router();
    const ordered = [...this.#registered].sort((a, b) => compareSpecificity(a.route.path, b.route.path));
    for (const { route, handler } of ordered) {
      const method =
        route.method === 'ALL'
          ? 'all'
          : (route.method.toLowerCase() as Lowercase<Exclude<HttpMethod, 'ALL'>>);
      dispatcher[method](route.path, handler);
    }
    return dispatcher;
  }

  #addFunction(method: HttpMethod, path: string, handler: RouteHandler): this {
    const source = handler.name || `function at ${method} ${path}`;
    return this.add({
      method,
      path: joinPath(path),
      handler,
      name: handler.name || `${method} ${joinPath(path)}`,
      source,
    });
  }

  #addResource(path: string, controller: Class | object, options: ResourceOptions, isApi: boolean): this {
    const instance =
      typeof controller === 'function'
        ? (this.#dependencies.resolve(controller as Class) as object)
        : controller;
    const routes = resourceRoutes({
      path,
      isApi,
      options,
      instance,
    });
    return this.add(...routes);
  }
}

function matcher(route: RouteDefinition): MatchFunction<object> {
  try {
    return match(route.path);
  } catch (error) {
    throw Errors.invalidRoute(route.source, `invalid path "${route.path}": ${(error as Error).message}`);
  }
}
