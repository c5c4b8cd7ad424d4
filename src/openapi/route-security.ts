import { InjectionToken } from '../container/token';
import type { RouteDefinition } from '../routing/route';
import type { SecurityScheme } from './authenticates';

/** How a route is opened, as the document states it: the schemes that may (any one of them), and what may answer. */
export interface RouteSecurity {
  /** The schemes, by name, any one of which opens the route. */
  readonly schemes: Readonly<Record<string, SecurityScheme>>;
  /** A policy may refuse it: 403. */
  readonly isAuthorized: boolean;
  /** A record is loaded for the policy: 404 when there is none. */
  readonly loadsRecord: boolean;
}

/** What says how each route is opened (`AuthModule`). @internal */
export interface RouteSecuritySource {
  securityOf(route: RouteDefinition): RouteSecurity | undefined;
}

/** The provider of {@link RouteSecuritySource}, where the application authenticates. @internal */
export const ROUTE_SECURITY = new InjectionToken<RouteSecuritySource>('route security');
