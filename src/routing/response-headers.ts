import { RoutingErrors } from '../errors/routing-errors';
import type { PreparedHandler } from '../http/exchange';
import { isHeaderName } from '../http/raw-headers';
import { MetadataKey } from '../metadata/keys';

/** The response headers `@Header` recorded on a handler, in the order they were declared. */
export type ResponseHeaders = readonly (readonly [name: string, value: string])[];

// A line break in a value would split the answer's head; Node refuses it, but only when answering.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The handler with the `@Header` response headers of its route set before it runs; the handler
 * itself when it has none. A name that is no header name, or a value Node would refuse, is a boot
 * error naming the route.
 *
 * @example
 * const call = withResponseHeaders(handler, metadata, 'ReportController.index (GET /reports)');
 */
export function withResponseHeaders(
  handler: PreparedHandler,
  metadata: ReadonlyMap<unknown, unknown>,
  description: string,
): PreparedHandler {
  const headers = metadata.get(MetadataKey.responseHeaders) as ResponseHeaders | undefined;
  if (headers === undefined || headers.length === 0) return handler;
  for (const [name, value] of headers) {
    if (!isHeaderName(name) || typeof value !== 'string' || !HEADER_VALUE.test(value))
      throw RoutingErrors.invalidRoute(
        description,
        `@Header(${JSON.stringify(name)}, ${JSON.stringify(value)}) needs a header name and a value of one line`,
      );
  }
  return (ctx, req) => {
    for (const [name, value] of headers) ctx.header(name, value);
    return handler(ctx, req);
  };
}
