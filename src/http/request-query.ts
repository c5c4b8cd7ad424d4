import type { Request } from 'express';
import { parse } from 'node:querystring';

/**
 * The request's parsed query string, as `req.query` gives it. Once Express has loaded, that is
 * `req.query`, which honours the application's `query parser` setting; until then no setting can
 * have been changed (changing one loads Express), and its default parser is Node's `querystring`.
 *
 * @example
 * requestQuery(req); // { page: '2', tag: ['a', 'b'] } for /orders?page=2&tag=a&tag=b
 */
export function requestQuery(req: Request): unknown {
  if (hasExpressHelpers(req)) return req.query;
  const url = req.url;
  const start = url.indexOf('?');
  if (start === -1) return parse('');
  // Node keeps a fragment a client sent; Express's URL parser drops it.
  const end = url.indexOf('#', start);
  return parse(url.slice(start + 1, end === -1 ? undefined : end));
}

// Express's request prototype carries `app`: a request has its helpers when it has an `app`.
function hasExpressHelpers(req: Request): boolean {
  return (req as Partial<Request>).app !== undefined;
}
