import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { describeDatabaseInputError } from '../database/database-input-errors';
import { describeDatabaseUnavailable } from '../database/database-unavailable';
import { HttpError, type FieldErrors } from '../errors';
import type { Logger } from '../logging/logger';
import type { ErrorPages } from './error-pages';
import { sendHtml, sendJson } from './send';

/** What the responder needs besides the request: where to log, and the HTML error pages. */
export interface ResponderParts {
  readonly logger: Logger;
  readonly pages: ErrorPages;
}

/** What the client is told: a status, a message, and a validation failure's fields. */
export interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly fields?: FieldErrors;
  /** Headers the answer carries, such as `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Where a 5xx is logged: `error` (the default), or `debug` for one logged where it arose, once. */
  readonly logLevel?: 'debug' | 'error';
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

// zlib's own errors, from a body whose Content-Encoding does not match its bytes.
const MALFORMED_ENCODING: ErrorAnswer = {
  status: 400,
  message: 'request body does not match its Content-Encoding',
};

const MALFORMED_PATH: ErrorAnswer = { status: 400, message: 'malformed percent-encoding in the path' };

/** The error for a path that cannot be percent-decoded. @example fail(malformedPath()) */
export function malformedPath(): HttpError {
  return new HttpError(MALFORMED_PATH.status, MALFORMED_PATH.message);
}
const INTERNAL_MESSAGE = 'internal server error';

// Headers that describe a successful answer and would be wrong on the error that replaced it.
const SUCCESS_HEADERS = ['content-type', 'content-disposition', 'content-encoding', 'etag', 'last-modified'];

/**
 * What the client is told about `error`. The status is the error's own when it carries one from
 * 400 to 599 (HttpError, body-parser, http-errors, libraries such as express-jwt), a 4xx for a
 * database error the request's input caused (a value too long, a duplicate key), else 500; the
 * message is shown only when the error exposes it (4xx by default), else the status's name, and a
 * 5xx never shows its own.
 */
export function describeError(error: unknown): ErrorAnswer {
  const tagged = error as {
    type?: unknown;
    code?: unknown;
    status?: unknown;
    statusCode?: unknown;
    expose?: unknown;
  } | null;
  const known = typeof tagged?.type === 'string' ? BODY_ERRORS[tagged.type] : undefined;
  if (known) return known;
  if (typeof tagged?.code === 'string' && tagged.code.startsWith('Z_')) return MALFORMED_ENCODING;
  const status = statusOf(tagged?.status ?? tagged?.statusCode);
  // Express's router marks a path parameter it cannot percent-decode as a 400 URIError.
  if (error instanceof URIError && status === 400) return MALFORMED_PATH;
  if (status === undefined)
    return (
      describeDatabaseUnavailable(error) ??
      describeDatabaseInputError(error) ?? { status: 500, message: INTERNAL_MESSAGE }
    );
  const fields = error instanceof HttpError ? error.fields : undefined;
  const exposes = error instanceof HttpError ? error.expose : tagged?.expose === true && status < 500;
  if (exposes) return { status, message: (error as Error).message, fields };
  return {
    status,
    message: status >= 500 ? INTERNAL_MESSAGE : (STATUS_CODES[status] ?? 'error').toLowerCase(),
    fields,
  };
}

/**
 * keel's last word on a failed request: answers `{"error": ...}` (never cached), logs every 5xx
 * with its stack, and cuts a response that had already started, the only honest signal left.
 *
 * @example
 * respondWithError(error, req, res, { logger, pages });
 */
export function respondWithError(
  error: unknown,
  req: Request,
  res: Response,
  { logger, pages }: ResponderParts,
): void {
  const answer = describeError(error);
  if (res.headersSent) {
    logger.error({ err: error, ...requestDetails(req) }, 'request failed after its answer was sent');
    if (!res.writableEnded) res.destroy();
    return;
  }
  if (answer.status >= 500)
    logger[answer.logLevel ?? 'error']({ err: error, ...requestDetails(req) }, 'request failed');
  for (const header of SUCCESS_HEADERS) res.removeHeader(header);
  res.setHeader('Cache-Control', 'no-store');
  const headers = error instanceof HttpError ? error.headers : answer.headers;
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
  sendError(req, res, answer, pages);
}

/**
 * Writes an error answer: the HTML error page when the request prefers HTML and one exists, else
 * JSON `{"error": message}` (with `fields` for a validation failure).
 *
 * @example
 * sendError(req, res, { status: 404, message: 'order not found' }, pages);
 */
export function sendError(req: Request, res: Response, answer: ErrorAnswer, pages: ErrorPages): void {
  // An error answer may echo what the client sent (a path): never let a browser read it as HTML.
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const page = pages.render(req, res, answer.status, answer.message);
  if (page !== undefined) return sendHtml(res, answer.status, page);
  const body = answer.fields ? { error: answer.message, fields: answer.fields } : { error: answer.message };
  sendJson(res, answer.status, body);
}

function statusOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599
    ? value
    : undefined;
}

function requestDetails(req: Request): { method: string; url: string } {
  return { method: req.method, url: req.originalUrl };
}
