import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * Runs `handlers` in order as one middleware, and only for requests that carry a body: most
 * requests (GET, HEAD, DELETE) have none, and would otherwise pass through each body parser's own
 * layer for nothing. A handler's error ends the chain and goes on to Express.
 */
export function forRequestsWithBody(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req.headers)) return next();
    let index = 0;
    const step = (error?: unknown): void => {
      const handler = handlers[index++];
      if (error !== undefined || handler === undefined) return next(error);
      handler(req, res, step);
    };
    step();
  };
}

// The rule body parsers apply themselves (type-is's hasBody): a declared length, or a chunked body.
function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || headers['content-length'] !== undefined;
}
