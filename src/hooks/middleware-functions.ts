import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Class } from '../container/token';
import type { MiddlewareClass, MiddlewareEntry } from '../http/middleware';
import { resolveHook } from './resolve-hooks';

/** Middleware entries as keel runs them: request middleware and error middleware, in order. */
export interface MiddlewareFunctions {
  readonly handlers: RequestHandler[];
  readonly errorHandlers: ErrorRequestHandler[];
}

/**
 * Sorts `entries` into request and error middleware, building classes through `resolve` (one
 * instance per class). Express tells error middleware by its four parameters; so does keel.
 *
 * @example
 * const { handlers, errorHandlers } = toMiddlewareFunctions([cors(), RequestId], (type) => container.construct(type));
 */
export function toMiddlewareFunctions(
  entries: readonly (MiddlewareEntry | MiddlewareClass)[],
  resolve: <T>(type: Class<T>) => T,
): MiddlewareFunctions {
  const handlers: RequestHandler[] = [];
  const errorHandlers: ErrorRequestHandler[] = [];
  for (const entry of entries) {
    // An instance, as a provider gives it (`APP_MIDDLEWARE`), or a class to build through DI.
    if (typeof entry !== 'function') {
      // Checked now, not at its first request: an object without `use` is a boot error.
      const instance = resolveHook<MiddlewareClass>(entry, {
        kind: 'a middleware',
        method: 'use',
        source: 'the application',
        resolve,
      });
      handlers.push((req, res, next) => instance.use(req, res, next));
    } else if (isMiddlewareClass(entry)) {
      const instance = resolve(entry);
      handlers.push((req, res, next) => instance.use(req, res, next));
    } else if (entry.length === 4) errorHandlers.push(entry as ErrorRequestHandler);
    else handlers.push(entry as RequestHandler);
  }
  return { handlers, errorHandlers };
}

function isMiddlewareClass(entry: MiddlewareEntry): entry is Class<MiddlewareClass> {
  return typeof (entry.prototype as Partial<MiddlewareClass> | undefined)?.use === 'function';
}
