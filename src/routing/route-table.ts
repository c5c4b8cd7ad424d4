import createRouter, { type HTTPMethod } from 'find-my-way';
import { METHODS } from 'node:http';
import { RoutingErrors } from '../errors/routing-errors';
import type { RouteMatch } from '../http/dispatcher';
import type { Endpoint, PathParams } from '../http/endpoint';
import { routeShape, toTablePath, type TablePath } from './path';
import type { RouteDefinition } from './route';

/** A route and the endpoint the HTTP layer prepared for it: what the table keeps. */
export interface RoutedEndpoint {
  readonly route: RouteDefinition;
  readonly endpoint: Endpoint;
}

type FindMyWay = ReturnType<typeof createRouter>;

// The order `Allow` lists methods in; HEAD follows GET, as GET routes serve it. An `ALL` route is
// listed with these.
const ALLOW_ORDER: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
// What an `ALL` route answers: every method Node's parser accepts.
const ALL_METHODS: readonly string[] = METHODS;
// Queries are parsed on demand by the request, never during the lookup.
const NO_QUERY = Object.freeze({});

/**
 * Every route of an application, each kept once: static paths are found by exact match and
 * parameters in a radix tree (find-my-way), so a static segment beats a parameter whatever the
 * declaration order. Like Express, matching ignores case and a trailing slash. Routes may be added
 * at any time; a second route with the same method and path is a boot error naming both.
 *
 * @example
 * table.add({ route, endpoint });
 * table.find('GET', '/orders/7?page=2'); // { endpoint, params: { id: '7' } }
 */
export class RouteTable {
  // Whether a route's version is a constraint of its path (header and media versioning), rather
  // than part of the path itself (URI versioning) or nothing at all.
  readonly #constrainsVersions: boolean;
  readonly #tree: FindMyWay;
  readonly #entries: RoutedEndpoint[] = [];
  // `METHOD shape` → the route that declared it, to name both in a conflict.
  readonly #declared = new Map<string, RouteDefinition>();
  // `METHOD shape` → the `ALL` route standing in for that method until a route of its own comes.
  readonly #standIns = new Map<string, string>();
  readonly #methods = new Set<string>();

  constructor({ constrainsVersions = false }: { constrainsVersions?: boolean } = {}) {
    this.#constrainsVersions = constrainsVersions;
    this.#tree = newTree(constrainsVersions);
  }

  /** Adds routes with their endpoints, all or none. @example table.add({ route, endpoint }) */
  add(...entries: readonly RoutedEndpoint[]): void {
    const batch = new Map<string, RouteDefinition>();
    const paths = entries.map(({ route }) => {
      const key = `${route.method} ${this.#shape(route)}`;
      const existing = this.#declared.get(key) ?? batch.get(key);
      if (existing) {
        const where =
          this.#versionOf(route) === undefined ? route.path : `${route.path} (version ${route.version})`;
        throw RoutingErrors.routeConflict(route.method, where, existing.source, route.source);
      }
      batch.set(key, route);
      const path = toTablePath(route.path);
      if (typeof path === 'string') {
        throw RoutingErrors.invalidRoute(route.source, `invalid path "${route.path}": ${path}`);
      }
      return path;
    });
    [...batch].forEach(([key, route], index) => {
      const { endpoint } = entries[index] as RoutedEndpoint;
      const { pattern, wildcard } = paths[index] as TablePath;
      this.#declared.set(key, route);
      const stored = wildcard === undefined ? endpoint : renamingWildcard(endpoint, wildcard);
      this.#insert({ route, endpoint: stored }, pattern);
    });
    this.#entries.push(...entries);
  }

  /**
   * The endpoint for `method` and `url` (a query string is ignored) and the API `version` asked for
   * (a route of that version before one without any); undefined when none matches.
   * @example table.find('GET', '/orders/7')
   */
  find(method: string, url: string, version?: string): RouteMatch | undefined {
    const found = this.#tree.find(method as HTTPMethod, url, constraintsOf(version));
    if (found === null) return undefined;
    const endpoint = found.store as Endpoint | null;
    // find-my-way answers a path it cannot percent-decode through `onBadUrl`, with no store.
    if (endpoint === null) return { endpoint: undefined, malformed: true };
    return { endpoint, params: found.params as PathParams };
  }

  /** The methods with a route for `url`, for `Allow`; empty when the path is unknown. @example table.allowedMethods('/orders') */
  allowedMethods(url: string, version?: string): string[] {
    const methods = new Set<string>();
    const constraints = constraintsOf(version);
    for (const method of this.#methods)
      if (this.#tree.find(method as HTTPMethod, url, constraints)?.store) methods.add(method);
    if (methods.has('GET')) methods.add('HEAD');
    return [...ALLOW_ORDER.filter((method) => methods.has(method)), ...[...methods].filter(isUnusual)];
  }

  /** Every route, in the order it was added. @example table.routes().length */
  routes(): RouteDefinition[] {
    return this.#entries.map((entry) => entry.route);
  }

  // An `ALL` route answers every method that has no route of its own on the same path; a route for
  // one method, added before or after it, takes that method over.
  #insert({ route, endpoint }: RoutedEndpoint, pattern: string): void {
    const shape = this.#shape(route);
    const version = this.#versionOf(route);
    const options = version === undefined ? {} : { constraints: { [VERSION]: version } };
    const isAll = route.method === 'ALL';
    const methods = isAll ? ALL_METHODS : [route.method];
    for (const method of methods) {
      const key = `${method} ${shape}`;
      if (isAll && this.#declared.has(key)) continue;
      if (!isAll && this.#standIns.delete(key))
        this.#tree.off(method as HTTPMethod, pattern, options.constraints ?? {});
      try {
        this.#tree.on(method as HTTPMethod, pattern, options, noop, endpoint);
      } catch (error) {
        throw RoutingErrors.invalidRoute(
          route.source,
          `invalid path "${route.path}": ${(error as Error).message}`,
        );
      }
      if (isAll) this.#standIns.set(key, route.source);
    }
    for (const method of isAll ? ALLOW_ORDER : methods) this.#methods.add(method);
  }

  // A route's version counts where it is a constraint: two versions of one path are two routes.
  #versionOf(route: RouteDefinition): string | undefined {
    return this.#constrainsVersions ? route.version : undefined;
  }

  #shape(route: RouteDefinition): string {
    const version = this.#versionOf(route);
    return version === undefined ? routeShape(route.path) : `${routeShape(route.path)} @${version}`;
  }
}

// The name of the constraint a route's API version is kept under.
const VERSION = 'apiVersion';

function constraintsOf(version: string | undefined): Record<string, string> | undefined {
  return version === undefined ? undefined : { [VERSION]: version };
}

// Routes of a version match only requests that ask for it; routes without one match any request.
function versionStrategy() {
  return {
    name: VERSION,
    mustMatchWhenDerived: false,
    storage() {
      const handlers = new Map<string, unknown>();
      return {
        get: (version: string) => handlers.get(version) ?? null,
        set: (version: string, handler: unknown) => void handlers.set(version, handler),
      };
    },
    // keel asks with the version it read, never through find-my-way's own lookup of a request.
    deriveConstraint: () => '',
  };
}

function newTree(constrainsVersions: boolean): FindMyWay {
  return createRouter({
    ...(constrainsVersions ? { constraints: { [VERSION]: versionStrategy() as never } } : {}),
    caseSensitive: false,
    ignoreTrailingSlash: true,
    // Express puts no bound on a parameter's length; Node's header limit bounds the URL already.
    maxParamLength: Number.MAX_SAFE_INTEGER,
    querystringParser: () => NO_QUERY,
    onBadUrl: noop,
  });
}

function noop(): void {}

// The table reports a trailing wildcard under `*`; handlers read it by the name the path gave it.
function renamingWildcard(endpoint: Endpoint, name: string): Endpoint {
  return {
    runMiddleware: endpoint.runMiddleware,
    catchError: endpoint.catchError,
    cors: endpoint.cors,
    run: (exchange) => endpoint.run(exchange),
    open: (req, res, params, state) => {
      const { '*': rest = '', ...named } = params;
      return endpoint.open(req, res, { ...named, [name]: rest }, state);
    },
  };
}

function isUnusual(method: string): boolean {
  return !ALLOW_ORDER.includes(method);
}
