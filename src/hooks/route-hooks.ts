import type { RequestHandler } from 'express';
import type { CanActivate, ExceptionFilter, HookEntry, Interceptor } from './hook-types';
import { resolveHook } from './resolve-hooks';
import type { Class } from '../container/token';
import type { DeclaredHooks } from './declared-hooks';
import { catchingFilter, type CatchingFilter } from './filters';
import { toMiddlewareFunctions } from './middleware-functions';
import { RoutingErrors } from '../errors/routing-errors';

/** The application's own hooks, from the `APP_GUARD`, `APP_INTERCEPTOR` and `APP_FILTER` providers. */
export interface GlobalHooks {
  readonly guards: readonly CanActivate[];
  readonly interceptors: readonly Interceptor[];
  readonly filters: readonly CatchingFilter[];
}

/** A route's hooks, built and in the order they run: what its endpoint is prepared from. */
export interface ResolvedHooks extends GlobalHooks {
  readonly middleware: readonly RequestHandler[];
}

/**
 * Builds the hooks of one route, once, when it is added: its decorators' classes through DI in the
 * controller's module, after the global guards and inside the global interceptors, its filters
 * before the global ones. A hook without its method is a boot error naming the route.
 *
 * @example
 * const { guards, interceptors, filters, middleware } = resolveRouteHooks(route.hooks, route.source, globals);
 */
export function resolveRouteHooks(
  declared: DeclaredHooks | undefined,
  source: string,
  globals: GlobalHooks,
): ResolvedHooks {
  if (!declared) return { ...globals, middleware: [] };
  const { resolve } = declared;
  const { handlers, errorHandlers } = toMiddlewareFunctions(declared.middleware, resolve);
  if (errorHandlers.length > 0) {
    throw RoutingErrors.invalidRoute(
      source,
      '@UseMiddleware takes request middleware; give error middleware to app.use',
    );
  }
  const { guards, interceptors, filters } = resolveHooks(declared, { source, resolve, kinds: ROUTE_KINDS });
  return {
    middleware: handlers,
    guards: [...globals.guards, ...guards],
    interceptors: [...globals.interceptors, ...interceptors],
    filters: [...filters, ...globals.filters],
  };
}

/** What one list of hooks is called in a boot error: `a guard`, `an APP_GUARD`... */
interface HookKinds {
  readonly guard: string;
  readonly interceptor: string;
  readonly filter: string;
}

const ROUTE_KINDS: HookKinds = { guard: 'a guard', interceptor: 'an interceptor', filter: 'a filter' };

/** How the `APP_*` providers' hooks are named in a boot error. */
export const GLOBAL_KINDS: HookKinds = {
  guard: 'an APP_GUARD',
  interceptor: 'an APP_INTERCEPTOR',
  filter: 'an APP_FILTER',
};

/**
 * Builds guards, interceptors and filters (classes through `resolve`), each checked for its method;
 * one without it is a boot error naming `source`. Filters come back paired with what they catch.
 *
 * @example
 * const globals = resolveHooks(instances, { source: 'the application', resolve, kinds: GLOBAL_KINDS });
 */
export function resolveHooks(
  lists: {
    readonly guards: readonly HookEntry<CanActivate>[];
    readonly interceptors: readonly HookEntry<Interceptor>[];
    readonly filters: readonly HookEntry<ExceptionFilter>[];
  },
  { source, resolve, kinds }: { source: string; resolve: <T>(type: Class<T>) => T; kinds: HookKinds },
): GlobalHooks {
  return {
    guards: lists.guards.map((entry) =>
      resolveHook<CanActivate>(entry, { kind: kinds.guard, method: 'canActivate', source, resolve }),
    ),
    interceptors: lists.interceptors.map((entry) =>
      resolveHook<Interceptor>(entry, { kind: kinds.interceptor, method: 'intercept', source, resolve }),
    ),
    filters: lists.filters.map((entry) =>
      catchingFilter(
        resolveHook<ExceptionFilter>(entry, { kind: kinds.filter, method: 'catch', source, resolve }),
      ),
    ),
  };
}
