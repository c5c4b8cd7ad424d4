import type { Class } from '../container/token';
import type { ErrorCatcher } from '../http/endpoint';
import type { Exchange } from '../http/exchange';
import { sendJson } from '../http/send';
import { isThenable } from '../http/thenable';
import { MetadataKey } from '../metadata/keys';
import { getMetadata } from '../metadata/reflection';
import type { ExceptionFilter } from './hook-types';

/** An exception filter with the error types its `@Catch` names, read once at boot (none: every error). */
export interface CatchingFilter {
  readonly filter: ExceptionFilter;
  readonly catches: readonly Class<unknown>[];
}

/** Pairs a filter instance with its `@Catch` types. @example catchingFilter(new NotFoundFilter()) */
export function catchingFilter(filter: ExceptionFilter): CatchingFilter {
  const catches = getMetadata<readonly Class<unknown>[]>(MetadataKey.catches, filter.constructor) ?? [];
  return { filter, catches };
}

/**
 * Gives `error` to the first filter that catches it, and tells whether its answer ended the
 * request: a filter that answers through the context, or returns a value (sent as JSON), did; one
 * that neither answers nor returns, or no matching filter, did not. A filter that throws or rejects
 * throws or rejects with its own error. The caller, the dispatcher's error path, goes on from there.
 *
 * @example
 * const answered = runFilters(error, filters, exchange); // boolean, or a promise of one
 */
export function runFilters(
  error: unknown,
  filters: readonly CatchingFilter[],
  exchange: Exchange,
): boolean | Promise<boolean> {
  const match = filters.find(
    ({ catches }) => catches.length === 0 || catches.some((type) => error instanceof type),
  );
  if (!match) return false;
  const settle = (value: unknown): boolean => {
    if (exchange.hasResponded) return true;
    if (value === undefined) return false;
    sendJson(exchange.res, exchange.res.statusCode, value);
    return true;
  };
  const result = match.filter.catch(error, exchange.ctx);
  return isThenable(result) ? Promise.resolve(result).then(settle) : settle(result);
}

/**
 * The dispatcher's first step for an error of a route (or of none): `filters`, as one function;
 * undefined when there are none, so an error skips the step.
 *
 * @example
 * const catchError = filterCatcher([...routeFilters, ...globalFilters]);
 */
export function filterCatcher(filters: readonly CatchingFilter[]): ErrorCatcher | undefined {
  if (filters.length === 0) return undefined;
  return (error, exchange) => runFilters(error, filters, exchange);
}
