import type { RequestHandler } from 'express';

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * HTML forms can only GET and POST: a POSTed form whose `_method` field is PUT, PATCH or DELETE
 * is routed as that method. The body stage runs it after a form's parser, and only then.
 */
export const methodOverride: RequestHandler = (req, _res, next) => {
  if (req.method === 'POST') {
    const requested: unknown = (req.body as Record<string, unknown> | undefined)?._method;
    const method = typeof requested === 'string' ? requested.toUpperCase() : '';
    if (OVERRIDABLE.has(method)) req.method = method;
  }
  next();
};
