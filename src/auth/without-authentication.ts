import { AuthErrors } from '../errors/auth-errors';
import type { PreparedHandler } from '../http/exchange';
import { MetadataKey } from '../metadata/keys';
import type { WrappedRoute } from '../routing/route-endpoint';

/**
 * What an application without `AuthModule` does with a route: one with `@Authenticated` or `@Can`
 * is a boot error (it would otherwise be open), any other keeps its handler. @internal
 *
 * @example
 * const call = withoutAuthentication(route, handler);
 */
export function withoutAuthentication(route: WrappedRoute, handler: PreparedHandler): PreparedHandler {
  const { metadata } = route;
  if (metadata?.has(MetadataKey.authStrategies) || metadata?.has(MetadataKey.authCan))
    throw AuthErrors.noAuthModule(route.description);
  return handler;
}
