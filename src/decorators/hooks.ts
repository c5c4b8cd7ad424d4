import type { Class } from '../container/token';
import type { CanActivate, ExceptionFilter, HookEntry, Interceptor } from '../hooks/hook-types';
import type { MiddlewareEntry } from '../http/middleware';
import { MetadataKey } from '../metadata/keys';
import { defineMetadata, getOwnMetadata } from '../metadata/reflection';

/** A decorator that goes on a controller class or on one of its handler methods. */
export type ClassOrMethodDecorator = (
  target: object,
  property?: string | symbol,
  descriptor?: unknown,
) => void;

// Class-level entries live on the class, method-level ones on the prototype under the method's name.
function appendEntries(key: symbol, entries: readonly unknown[]): ClassOrMethodDecorator {
  return (target, property) => {
    const list = getOwnMetadata<readonly unknown[]>(key, target, property) ?? [];
    defineMetadata(key, [...list, ...entries], target, property);
  };
}

/**
 * Runs guards before the handler of every route of the class, or of one method: after the
 * `APP_GUARD`s, class guards before method guards.
 *
 * @example
 * @UseGuards(AuthGuard) @Controller('admin') class AdminController {}
 */
export function UseGuards(...guards: HookEntry<CanActivate>[]): ClassOrMethodDecorator {
  return appendEntries(MetadataKey.guards, guards);
}

/**
 * Wraps the handlers of the class, or of one method, in interceptors: `APP_INTERCEPTOR`s outermost,
 * then the class's, then the method's.
 *
 * @example
 * @UseInterceptors(TimingInterceptor) @Get() index() {}
 */
export function UseInterceptors(...interceptors: HookEntry<Interceptor>[]): ClassOrMethodDecorator {
  return appendEntries(MetadataKey.interceptors, interceptors);
}

/**
 * Gives errors of the class's routes, or one method's, to exception filters: the method's are
 * tried first, then the class's, then the `APP_FILTER`s.
 *
 * @example
 * @UseFilters(NotFoundFilter) @Resource('orders') class OrderController {}
 */
export function UseFilters(...filters: HookEntry<ExceptionFilter>[]): ClassOrMethodDecorator {
  return appendEntries(MetadataKey.filters, filters);
}

/**
 * Runs Express middleware (or `@Injectable()` classes with `use`) for the routes of the class, or
 * of one method, after routing and before the guards.
 *
 * @example
 * @UseMiddleware(cors({ origin: 'https://shop.example' })) @ApiResource('api/orders') class OrderApi {}
 */
export function UseMiddleware(...middleware: MiddlewareEntry[]): ClassOrMethodDecorator {
  return appendEntries(MetadataKey.middleware, middleware);
}

/**
 * Names the errors an exception filter answers (by `instanceof`); a filter without it answers every error.
 *
 * @example
 * @Catch(QueryFailedError) class QueryFailedFilter implements ExceptionFilter {}
 */
export function Catch(...types: Class<unknown>[]): ClassDecorator {
  return (target) => defineMetadata(MetadataKey.catches, types, target);
}

/**
 * Attaches `value` under `key` to a class or a handler method; `ctx.metadata(key)` reads the
 * method's value, else the class's. Guards read roles this way.
 *
 * @example
 * export const Roles = (...roles: string[]) => SetMetadata('roles', roles);
 * @Roles('admin') @Delete(':id') destroy() {}
 */
export function SetMetadata(key: unknown, value: unknown): ClassOrMethodDecorator {
  return (target, property) => {
    const own = getOwnMetadata<ReadonlyMap<unknown, unknown>>(MetadataKey.custom, target, property);
    defineMetadata(MetadataKey.custom, new Map([...(own ?? []), [key, value]]), target, property);
  };
}

/**
 * Lets unsafe methods (POST, PUT, PATCH, DELETE) reach a class's routes, or one method's, without
 * the session's CSRF token: for webhooks and other callers that are not browsers. `@ApiResource`
 * controllers are exempt already.
 *
 * @example
 * @SkipCsrf() @Post('webhooks/payments') paid(ctx: Context) {}
 */
export function SkipCsrf(): ClassOrMethodDecorator {
  return SetMetadata(MetadataKey.skipCsrf, true);
}
