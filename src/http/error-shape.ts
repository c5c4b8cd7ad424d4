import { STATUS_CODES } from 'node:http';
import { InjectionToken } from '../container/token';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import type { FieldErrors } from '../errors/http-error';
import type { Logger } from '../logging/logger';

/**
 * An error answer as keel hands it to the application's own error format: every error keel writes,
 * from a malformed body to a 500, is described this way first.
 *
 * @example
 * const format = (error: DescribedError) => ({ errors: { body: [error.message] } });
 */
export interface DescribedError {
  /** The answer's status, 400 to 599. */
  readonly status: number;
  /** The status's name: `Not Found`, `Unprocessable Entity`. */
  readonly title: string;
  /** What keel tells the client: `malformed JSON body`; a 5xx never shows its own, only `internal server error` or the dependency that is away. */
  readonly message: string;
  /** The catalogue's code where keel raised the error (`E_MALFORMED_JSON`), or an `HttpError`'s own code. */
  readonly code: string | undefined;
  /** A validation failure's messages, by field: `{ email: ['email must be an email'] }`. */
  readonly fields: FieldErrors | undefined;
}

/** Turns a described error into the body the client receives, as JSON. @example const format: ErrorFormatter = (error) => ({ message: error.message }) */
export type ErrorFormatter = (error: DescribedError) => unknown;

/** A JSON Schema, as plain data: what an error format states its bodies are, for the OpenAPI document. */
export type ErrorBodySchema = { readonly [keyword: string]: unknown };

/** An error format of the application's own, with what the OpenAPI document says of it. */
export interface ErrorFormat {
  /** Gives the body of each error answer. */
  readonly format: ErrorFormatter;
  /** The answers' `Content-Type`. Default: `application/json; charset=utf-8`. */
  readonly contentType?: string;
  /** The JSON Schema of the bodies `format` gives, for the OpenAPI document. Default: `{}`, any JSON. */
  readonly schema?: ErrorBodySchema;
}

/**
 * The shape of every error answer: `'keel'` (`{"error": message}`, the default), `'problem'`
 * (RFC 9457, `application/problem+json`), or the application's own format.
 */
export type ErrorsOption = 'keel' | 'problem' | ErrorFormatter | ErrorFormat;

/** What an error answer says, as the responder has described it. */
export interface ShapedAnswer {
  readonly status: number;
  readonly message: string;
  readonly code?: string | undefined;
  readonly fields?: FieldErrors | undefined;
}

/**
 * The shape in force, decided at boot: the media type and body of every error answer, and the
 * schemas the OpenAPI document states for them.
 *
 * @example
 * res.setHeader('Content-Type', shape.contentType); res.end(shape.body({ status: 404, message: 'no route' }));
 */
export interface ErrorShape {
  readonly contentType: string;
  /** The body of `answer`, serialised. */
  body(answer: ShapedAnswer): string;
  /** The media type without parameters, as the OpenAPI document keys content by it. */
  readonly mediaType: string;
  /** The schemas of an error answer and of a validation failure's. */
  readonly schemas: { readonly error: ErrorBodySchema; readonly validationError: ErrorBodySchema };
}

/** The shape in force, for the parts of keel that write an answer outside a route or document them. */
export const ERROR_SHAPE = new InjectionToken<ErrorShape>('the shape of error answers');

const JSON_TYPE = 'application/json; charset=utf-8';
const FIELDS_SCHEMA = { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } };

function keelBody({ message, fields }: ShapedAnswer): string {
  return JSON.stringify(fields ? { error: message, fields } : { error: message });
}

/** keel's own shape: `{"error": message}`, with `fields` for a validation failure. */
export const KEEL_ERRORS: ErrorShape = Object.freeze({
  contentType: JSON_TYPE,
  mediaType: 'application/json',
  body: keelBody,
  schemas: {
    error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
    validationError: {
      type: 'object',
      properties: { error: { const: 'validation failed' }, fields: FIELDS_SCHEMA },
      required: ['error', 'fields'],
    },
  },
});

const PROBLEM_PROPERTIES = {
  type: { type: 'string' },
  title: { type: 'string' },
  status: { type: 'integer', minimum: 400, maximum: 599 },
  detail: { type: 'string' },
};
const PROBLEM_REQUIRED = ['type', 'title', 'status', 'detail'];

// RFC 9457: `about:blank` says the status is all the type there is, so `title` is its name. A
// validation failure's messages go in `errors`, by field, as ASP.NET Core's validation problems.
const PROBLEM_ERRORS: ErrorShape = Object.freeze({
  contentType: 'application/problem+json; charset=utf-8',
  mediaType: 'application/problem+json',
  body: (answer: ShapedAnswer) => JSON.stringify(problemOf(answer)),
  schemas: {
    error: { type: 'object', properties: PROBLEM_PROPERTIES, required: PROBLEM_REQUIRED },
    validationError: {
      type: 'object',
      properties: { ...PROBLEM_PROPERTIES, errors: FIELDS_SCHEMA },
      required: [...PROBLEM_REQUIRED, 'errors'],
    },
  },
});

function problemOf({ status, message, fields }: ShapedAnswer): object {
  const problem = { type: 'about:blank', title: titleOf(status), status, detail: message };
  return fields ? { ...problem, errors: fields } : problem;
}

function titleOf(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * The shape the option `errors` names; an option of the wrong kind is a boot error. A format
 * that throws, or gives nothing JSON can say, is logged and the answer goes out in keel's shape:
 * an error answer must never fail in turn.
 *
 * @example
 * const shape = resolveErrorShape('problem', logger);
 */
export function resolveErrorShape(option: ErrorsOption | undefined, logger: Logger): ErrorShape {
  if (option === undefined || option === 'keel') return KEEL_ERRORS;
  if (option === 'problem') return PROBLEM_ERRORS;
  const own = typeof option === 'function' ? { format: option } : option;
  if (typeof own !== 'object' || own === null || typeof own.format !== 'function') {
    throw LifecycleErrors.invalidOption(
      'errors',
      option,
      "'keel', 'problem', a function of the described error, or { format, contentType?, schema? }",
    );
  }
  const { format, contentType = JSON_TYPE, schema = {} } = own;
  if (typeof contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(contentType))
    throw LifecycleErrors.invalidOption(
      'errors.contentType',
      contentType,
      "a media type such as 'application/json'",
    );
  return Object.freeze({
    contentType,
    mediaType: contentType.split(';', 1)[0]?.trim() ?? contentType,
    body: (answer: ShapedAnswer) => ownBody(format, answer, logger),
    schemas: { error: schema, validationError: schema },
  });
}

function ownBody(format: ErrorFormatter, answer: ShapedAnswer, logger: Logger): string {
  const described: DescribedError = {
    status: answer.status,
    title: titleOf(answer.status),
    message: answer.message,
    code: answer.code,
    fields: answer.fields,
  };
  try {
    const body = JSON.stringify(format(described));
    if (body !== undefined) return body;
    logger.error({ status: answer.status }, 'the errors format gave no body: answered in keel’s shape');
  } catch (error) {
    logger.error({ err: error, status: answer.status }, 'the errors format failed: answered in keel’s shape');
  }
  return keelBody(answer);
}
