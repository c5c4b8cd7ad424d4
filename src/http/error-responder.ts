import type { Request, Response } from 'express';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { HttpError, type FieldErrors } from '../errors/http-error';
import { RequestErrors } from '../errors/request-errors';
import type { Logger } from '../logging/logger';
import { holdHeader, removeHeaders } from './held-headers';
import type { ErrorPages } from './error-pages';
import type { ErrorShape } from './error-shape';
import { sendHtml, sendText } from './send';

/** What the client is told: a status, a message, a validation failure's fields, and headers such as `Retry-After`. */
export interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly fields?: FieldErrors;
  /** The catalogue's code, where keel raised the error; what an application's error format may read. */
  readonly code?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Where a 5xx is logged: `error` (the default), or `debug` for one logged where it arose, once. */
  readonly logLevel?: 'debug' | 'error';
}

/**
 * Tells what an error that carries no status of its own means to the client, or undefined when it
 * does not know it: how a feature (the database) teaches the responder its errors without the
 * responder knowing the feature.
 *
 * @example
 * const describeTimeout: ErrorDescriber = (error) =>
 *   error instanceof TimeoutError ? { status: 504, message: 'upstream timed out' } : undefined;
 */
export type ErrorDescriber = (error: unknown) => ErrorAnswer | undefined;

/** What the responder needs besides the request: where to log, the HTML error pages, and the describers. */
export interface ResponderParts {
  readonly logger: Logger;
  readonly pages: ErrorPages;
  /** Asked in order for an error without a status of its own; the first answer wins, else 500. */
  readonly describers: readonly ErrorDescriber[];
}

/**
 * The answer an entry of the catalogue gives when it is described rather than thrown (a parser's
 * error, a dependency away): its status and its message.
 *
 * @example
 * const MALFORMED_JSON = answerOf(RequestErrors.malformedJson); // { status: 400, message: 'malformed JSON body' }
 */
export function answerOf(entry: {
  readonly code: string;
  readonly status: number;
  readonly message: () => string;
}): ErrorAnswer {
  return Object.freeze({ status: entry.status, message: entry.message(), code: entry.code });
}

// body-parser tags its errors with `type`: what each means to the client.
const BODY_ERRORS: Readonly<Record<string, ErrorAnswer>> = {
  'entity.parse.failed': answerOf(RequestErrors.malformedJson),
  'entity.too.large': answerOf(RequestErrors.bodyTooLarge),
  'parameters.too.many': answerOf(RequestErrors.tooManyFormFields),
  'request.size.invalid': answerOf(RequestErrors.bodyShorterThanLength),
  'request.aborted': answerOf(RequestErrors.requestAborted),
  'encoding.unsupported': answerOf(RequestErrors.unsupportedEncoding),
  'charset.unsupported': answerOf(RequestErrors.unsupportedCharset),
};

const MALFORMED_ENCODING = answerOf(RequestErrors.encodingMismatch);
const MALFORMED_PATH = answerOf(RequestErrors.malformedPath);
const INTERNAL = answerOf(RequestErrors.internalServerError);

/** The error for a path that cannot be percent-decoded. @example fail(malformedPath()) */
export function malformedPath(): HttpError {
  return RequestErrors.malformedPath();
}

// Headers that describe a successful answer and would be wrong on the error that replaced it.
const SUCCESS_HEADERS = ['content-type', 'content-disposition', 'content-encoding', 'etag', 'last-modified'];

/**
 * What the client is told about `error`. The status is the error's own when it carries one from
 * 400 to 599 (HttpError, body-parser, http-errors, libraries such as express-jwt), else the first
 * answer of `describers` (a database error the request's input caused is a 4xx), else 500; the
 * message is shown only when the error exposes it (4xx by default), else the status's name, and a
 * 5xx never shows its own.
 *
 * @example
 * describeError(new HttpError(404, 'order not found'), []); // { status: 404, message: 'order not found' }
 */
export function describeError(error: unknown, describers: readonly ErrorDescriber[]): ErrorAnswer {
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
  if (status === undefined) return describeUnknown(error, describers);
  const fields = error instanceof HttpError ? error.fields : undefined;
  const code = error instanceof HttpError ? error.code : undefined;
  const exposes = error instanceof HttpError ? error.expose : tagged?.expose === true && status < 500;
  if (exposes) return { status, message: (error as Error).message, fields, code };
  return {
    status,
    message: status >= 500 ? INTERNAL.message : (STATUS_CODES[status] ?? 'error').toLowerCase(),
    fields,
    code,
  };
}

/**
 * keel's last word on a failed request: answers in the application's error shape (never cached), logs every 5xx
 * with its stack, and cuts a response that had already started, the only honest signal left.
 *
 * @example
 * respondWithError(error, req, res, { logger, pages, describers });
 */
export function respondWithError(
  error: unknown,
  req: Request,
  res: Response,
  { logger, pages, describers }: ResponderParts,
): void {
  const answer = describeError(error, describers);
  if (res.headersSent) {
    logger.error({ err: error, ...requestDetails(req) }, 'request failed after its answer was sent');
    if (!res.writableEnded) res.destroy();
    return;
  }
  if (answer.status >= 500)
    logger[answer.logLevel ?? 'error']({ err: error, ...requestDetails(req) }, 'request failed');
  // The headers the failed answer had held stay (its request id, the security headers, CORS);
  // those that described the answer it replaced go. Still held unless middleware saw them, they go
  // to Node in one object, as any answer's do.
  removeHeaders(res, SUCCESS_HEADERS);
  setAnswerHeaders(res, error instanceof HttpError ? error.headers : answer.headers);
  sendError(req, res, answer, pages);
}

/**
 * Writes `error`'s answer on a bare `ServerResponse` that no keel request context serves (the
 * metrics port, a request that met a failed bootstrap): the same headers and body (of `shape`) as
 * every other error answer, with no error pages and no logging, which its caller does.
 *
 * @example
 * respondOnBareResponse(res, RequestErrors.routeNotFound('GET', '/x'), shape);
 */
export function respondOnBareResponse(res: ServerResponse, error: HttpError, shape: ErrorShape): void {
  setAnswerHeaders(res, error.headers);
  forbidSniffing(res);
  sendShaped(res, describeError(error, []), shape);
}

/**
 * Writes an error answer: the HTML error page when the request prefers HTML and one exists, else
 * a body of the application's error shape (keel's: `{"error": message}`, with `fields` for a
 * validation failure).
 *
 * @example
 * sendError(req, res, { status: 404, message: 'order not found' }, pages);
 */
export function sendError(req: Request, res: Response, answer: ErrorAnswer, pages: ErrorPages): void {
  forbidSniffing(res);
  const page = pages.render(req, res, answer.status, answer.message);
  if (page !== undefined) return sendHtml(res, answer.status, page);
  sendShaped(res, answer, pages.shape);
}

// An error answer is never cached: the next request may well succeed.
function setAnswerHeaders(res: ServerResponse, headers: Readonly<Record<string, string>> | undefined): void {
  holdHeader(res, 'Cache-Control', 'no-store');
  if (headers !== undefined)
    for (const name of Object.keys(headers)) holdHeader(res, name, headers[name] as string);
}

// An error answer may echo what the client sent (a path): never let a browser read it as HTML.
function forbidSniffing(res: ServerResponse): void {
  holdHeader(res, 'X-Content-Type-Options', 'nosniff');
}

function sendShaped(res: ServerResponse, answer: ErrorAnswer, shape: ErrorShape): void {
  sendText(res, answer.status, shape.contentType, shape.body(answer));
}

function describeUnknown(error: unknown, describers: readonly ErrorDescriber[]): ErrorAnswer {
  for (const describe of describers) {
    const answer = describe(error);
    if (answer) return answer;
  }
  return INTERNAL;
}

function statusOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599
    ? value
    : undefined;
}

function requestDetails(req: Request): { method: string; url: string } {
  return { method: req.method, url: req.originalUrl };
}
