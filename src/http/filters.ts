import type { Request, Response } from 'express';
import type { Class } from '../container/token';
import type { ExceptionFilter } from '../hooks/hook-types';
import { MetadataKey } from '../metadata/keys';
import { getMetadata } from '../metadata/reflection';
import type { Context } from './context';
import { sendJson } from './send';
import { isThenable } from './thenable';

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

/** Where an error goes when no filter answers it: the error middleware, then keel's responder. */
export type FailRequest = (error: unknown, req: Request, res: Response) => void;

/** What running the filters for one failed request needs. */
export interface FilterRun {
  readonly filters: readonly CatchingFilter[];
  readonly ctx: Context;
  readonly req: Request;
  readonly res: Response;
  readonly fail: FailRequest;
}

/**
 * Gives `error` to the first filter that catches it; its answer ends the request. A filter that
 * returns a value has it sent as JSON; one that neither answers nor returns, or no filter at all,
 * leaves the error to `fail`, and so does a filter that throws, with its own error.
 *
 * @example
 * runFilters(error, { filters, ctx, req, res, fail });
 */
export function runFilters(error: unknown, { filters, ctx, req, res, fail }: FilterRun): void {
  const match = filters.find(
    ({ catches }) => catches.length === 0 || catches.some((type) => error instanceof type),
  );
  if (!match) return fail(error, req, res);
  const settle = (value: unknown): void => {
    if (ctx.hasResponded) return;
    if (value === undefined) return fail(error, req, res);
    sendJson(res, res.statusCode, value);
  };
  let result: unknown;
  try {
    result = match.filter.catch(error, ctx);
  } catch (thrown) {
    return fail(thrown, req, res);
  }
  if (isThenable(result)) {
    Promise.resolve(result).then(settle, (thrown: unknown) => fail(thrown, req, res));
  } else settle(result);
}
