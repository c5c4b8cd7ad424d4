import { RoutingErrors } from '../errors/routing-errors';
import { checkVersion, type Versioning } from '../http/versioning';
import { MetadataKey } from '../metadata/keys';
import { joinPath } from './path';
import type { RouteDefinition } from './route';

/**
 * The routes as the versioning serves them: a route with `@Version` becomes one route per version,
 * named `name@version` (`orders.index@2`), under `/v2/...` for URI versioning (after the
 * application's `prefix`: `/api/v2/...`), or kept on its path
 * with the version as a constraint; with URI versioning and a `defaultVersion`, that version's
 * routes also answer on the path without a version. Routes without `@Version` stay as they are.
 *
 * @example
 * versionedRoutes(compileController(OrderV2Controller, ...), { versioning, prefix: '/api' });
 */
export function versionedRoutes(
  routes: readonly RouteDefinition[],
  { versioning, prefix }: { versioning: Versioning | undefined; prefix: string },
): RouteDefinition[] {
  return routes.flatMap((route) => {
    const versions = route.hooks?.metadata.get(MetadataKey.version) as readonly string[] | undefined;
    if (versions === undefined) return [route];
    if (versioning === undefined) {
      throw RoutingErrors.invalidRoute(
        route.source,
        `@Version('${versions.join("', '")}') needs the application option versioning.\n` +
          "Fix: pass versioning: { type: 'uri' } (or 'header', or 'media') to createApplication.",
      );
    }
    if (versions.length === 0)
      throw RoutingErrors.invalidRoute(route.source, '@Version([]) names no version');
    return versions.flatMap((version) => {
      checkVersion(version, `@Version of ${route.source}`);
      const versioned = { ...route, name: `${route.name}@${version}`, version };
      if (versioning.type !== 'uri') return [versioned];
      // Only controllers' routes have a @Version, and each is under the application's prefix:
      // `/api/v2/orders`, as NestJS puts them.
      const rest =
        prefix !== '' && route.path.startsWith(prefix) ? route.path.slice(prefix.length) : route.path;
      const inPath = { ...versioned, path: joinPath(prefix, `/${versioning.prefix}${version}`, rest) };
      return version === versioning.defaultVersion
        ? [inPath, { ...versioned, name: `${versioned.name}.default` }]
        : [inPath];
    });
  });
}
