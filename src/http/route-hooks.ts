import type { RequestHandler } from 'express';
import type { CanActivate, ExceptionFilter, Interceptor } from '../hooks/hook-types';
import { resolveHook } from '../hooks/resolve-hooks';
import { Errors } from '../errors';
import type { RouteDefinition } from '../routing/route';
import { catchingFilter, type CatchingFilter } from './filters';
import { toMiddlewareFunctions } from './middleware';

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
 * const { guards, interceptors, filters, middleware } = resolveRouteHooks(route, globals);
 */
export function resolveRouteHooks(route: RouteDefinition, globals: GlobalHooks): ResolvedHooks {
  const declared = route.hooks;
  if (!declared) return { ...globals, middleware: [] };
  const { source } = route;
  const { resolve } = declared;
  const { handlers, errorHandlers } = toMiddlewareFunctions(declared.middleware, resolve);
  if (errorHandlers.length > 0) {
    throw Errors.invalidRoute(
      source,
      '@UseMiddleware takes request middleware; give error middleware to app.use',
    );
  }
  const guards = declared.guards.map((entry) =>
    resolveHook<CanActivate>(entry, { kind: 'a guard', method: 'canActivate', source, resolve }),
  );
  const interceptors = declared.interceptors.map((entry) =>
    resolveHook<Interceptor>(entry, { kind: 'an interceptor', method: 'intercept', source, resolve }),
  );
  const filters = declared.filters.map((entry) =>
    catchingFilter(
      resolveHook<ExceptionFilter>(entry, { kind: 'a filter', method: 'catch', source, resolve }),
    ),
  );
  return {
    middleware: handlers,
    guards: [...globals.guards, ...guards],
    interceptors: [...globals.interceptors, ...interceptors],
    filters: [...filters, ...globals.filters],
  };
}
