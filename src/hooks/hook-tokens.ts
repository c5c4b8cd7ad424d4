import { InjectionToken } from '../container/token';
import type { MiddlewareClass, MiddlewareEntry } from '../http/middleware';
import type { CanActivate, ExceptionFilter, Interceptor } from './hook-types';

/**
 * Provides a guard that runs before every route's own guards; each module may add one or more.
 *
 * @example
 * @Module({ providers: [{ provide: APP_GUARD, useClass: AuthGuard }] })
 */
export const APP_GUARD = new InjectionToken<CanActivate>('APP_GUARD', { multi: true });

/**
 * Provides an interceptor that wraps every route, outside the routes' own interceptors.
 *
 * @example
 * @Module({ providers: [{ provide: APP_INTERCEPTOR, useClass: TimingInterceptor }] })
 */
export const APP_INTERCEPTOR = new InjectionToken<Interceptor>('APP_INTERCEPTOR', { multi: true });

/**
 * Provides an exception filter tried after every route's own filters, and for errors of
 * application middleware and routing (404, 405).
 *
 * @example
 * @Module({ providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }] })
 */
export const APP_FILTER = new InjectionToken<ExceptionFilter>('APP_FILTER', { multi: true });

/**
 * Provides application middleware (phase 3) from a module, run before what `app.use` adds: a
 * function, or a class with `use(req, res, next)`. How `SessionModule` installs sessions.
 *
 * @example
 * @Module({ providers: [{ provide: APP_MIDDLEWARE, useValue: compression() }] })
 */
export const APP_MIDDLEWARE = new InjectionToken<MiddlewareEntry | MiddlewareClass>('APP_MIDDLEWARE', {
  multi: true,
});
