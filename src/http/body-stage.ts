import type { RequestHandler } from 'express';

/**
 * Runs `handlers` in order as one middleware, and only for requests that carry a body: most
 * requests (GET, HEAD, DELETE) have none, and would otherwise pass through each body parser's own
 * layer for nothing. A handler's error ends the chain and goes on to Express.
 */
export function forRequestsWithBody(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req.rawHeaders)) return next();
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
// Read from the raw headers: Node builds `req.headers` on first read, and most requests would
// otherwise pay for it here alone.
function hasBody(rawHeaders: readonly string[]): boolean {
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string;
    // The length first: most names are ruled out without lowering their case.
    if (name.length === CONTENT_LENGTH.length && name.toLowerCase() === CONTENT_LENGTH) return true;
    if (name.length === TRANSFER_ENCODING.length && name.toLowerCase() === TRANSFER_ENCODING) return true;
  }
  return false;
}

const CONTENT_LENGTH = 'content-length';
const TRANSFER_ENCODING = 'transfer-encoding';
