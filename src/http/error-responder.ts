import type { ErrorRequestHandler, Request } from 'express';
import { HttpError, type FieldErrors } from '../errors';
import type { Logger } from '../logging/logger';

interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly fields?: FieldErrors;
}

// body-parser tags its errors with `type`: the catalogue of what each means to the client.
const BODY_ERRORS: Readonly<Record<string, ErrorAnswer>> = {
  'entity.parse.failed': { status: 400, message: 'malformed JSON body' },
  'entity.too.large': { status: 413, message: 'request body too large' },
  'parameters.too.many': { status: 413, message: 'too many form fields' },
  'request.size.invalid': { status: 400, message: 'request body shorter than its Content-Length' },
  'request.aborted': { status: 400, message: 'request aborted' },
  'encoding.unsupported': { status: 415, message: 'unsupported content encoding' },
  'charset.unsupported': { status: 415, message: 'unsupported charset' },
};

const MALFORMED_PATH: ErrorAnswer = { status: 400, message: 'malformed percent-encoding in the path' };
const INTERNAL: ErrorAnswer = { status: 500, message: 'internal server error' };

/**
 * What the client is told about `error`: HttpErrors as they say (a 5xx message only if exposed),
 * body and framework errors from the catalogue, anything else a bare 500.
 */
export function describeError(error: unknown): ErrorAnswer {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      message: error.expose ? error.message : INTERNAL.message,
      fields: error.fields,
    };
  }
  const tagged = error as { type?: unknown; status?: unknown; expose?: unknown; message?: unknown } | null;
  const known = typeof tagged?.type === 'string' ? BODY_ERRORS[tagged.type] : undefined;
  if (known) return known;
  // Express's router marks a path parameter it cannot percent-decode as a 400 URIError.
  if (error instanceof URIError && tagged?.status === 400) return MALFORMED_PATH;
  // Errors from Express's own stack (http-errors) say whether their message is safe to show.
  if (
    typeof tagged?.status === 'number' &&
    tagged.status >= 400 &&
    tagged.status < 500 &&
    tagged.expose === true
  ) {
    return { status: tagged.status, message: String(tagged.message) };
  }
  return INTERNAL;
}

/** The last error handler: answers `{"error": ...}` and logs every 5xx with its stack. */
export function createErrorResponder(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const answer = describeError(error);
    if (answer.status >= 500) logger.error({ err: error, ...requestDetails(req) }, 'request failed');
    if (res.headersSent) {
      // Part of the answer is already on the wire: cutting the connection is the only honest signal left.
      res.destroy();
      return;
    }
    const body = answer.fields ? { error: answer.message, fields: answer.fields } : { error: answer.message };
    res.status(answer.status).json(body);
  };
}

function requestDetails(req: Request): { method: string; url: string } {
  return { method: req.method, url: req.originalUrl };
}
