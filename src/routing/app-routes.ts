import { InjectionToken } from '../container/token';
import type { Router } from './router';

/** Adds a module's own routes to the application's router. */
export interface RouteRegistrar {
  /** Called once at boot, after the controllers' routes are in: `router` is the application's. */
  register(router: Router): void;
}

/**
 * Provides routes from a module, added at boot after the controllers' routes: how `OpenApiModule`
 * serves its document and its page, and reads the routes it documents.
 *
 * @example
 * @Module({ providers: [{ provide: APP_ROUTES, useValue: { register: (router) => router.get('/ping', () => 'pong') } }] })
 */
export const APP_ROUTES = new InjectionToken<RouteRegistrar>('APP_ROUTES', { multi: true });
