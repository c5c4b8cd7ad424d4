import bytes from 'bytes';
import type { RequestHandler } from 'express';
import type BodyParser from 'body-parser';
import type multerModule from 'multer';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import type { HttpError } from '../errors';
import { RequestErrors } from '../errors/request-errors';
import { withPlainJson } from './plain-json';
import type { BodyParsers } from './body-stage';

// multer's limit codes: what each means to the client.
const MULTIPART_LIMITS: Readonly<Record<string, (cause: unknown) => HttpError>> = {
  LIMIT_FILE_SIZE: RequestErrors.uploadedFileTooLarge,
  LIMIT_FIELD_VALUE: RequestErrors.formFieldTooLarge,
  LIMIT_PART_COUNT: RequestErrors.tooManyFormParts,
  LIMIT_FILE_COUNT: RequestErrors.tooManyFiles,
  LIMIT_FIELD_COUNT: RequestErrors.tooManyFormFields,
  LIMIT_FIELD_KEY: RequestErrors.formFieldNameTooLong,
};

// The body stage has matched the content type before it calls a parser.
const ALREADY_MATCHED = (): boolean => true;

const SIZE = /^\d+(\.\d+)?\s*(b|kb|mb|gb)$/i;

/**
 * The body parsers, each bounded by `limit` as a whole: JSON, urlencoded forms and multipart forms
 * (files are kept in memory on `req.files`). The body stage runs the one the content type names:
 * none of them reads it again.
 */
export function createBodyParsers(limit: string | number): BodyParsers {
  const limitBytes = parseLimit(limit);
  // multer (and busboy under it) loads with the first multipart request: most applications get none.
  let multipart: Promise<{ multer: typeof multerModule; parse: RequestHandler }> | undefined;
  const loadMultipart = () =>
    (multipart ??= import('multer').then(({ default: multer }) => ({
      multer,
      parse: multer({
        storage: multer.memoryStorage(),
        limits: { fileSize: limitBytes, fieldSize: limitBytes, files: 10, fields: 1000 },
      }).any(),
    })));

  // multer bounds each part, not the body: bound the whole by its declared length, which Node
  // enforces while reading. A chunked multipart body declares none, so it is refused.
  const parseMultipart: RequestHandler = (req, res, next) => {
    const declared = req.headers['content-length'];
    if (declared === undefined) return next(RequestErrors.lengthRequired());
    if (Number(declared) > limitBytes) return next(RequestErrors.bodyTooLarge());
    loadMultipart().then(
      ({ multer, parse }) =>
        parse(req, res, (error?: unknown) =>
          next(error === undefined ? undefined : multipartError(multer, error)),
        ),
      next,
    );
  };
  return {
    json: withPlainJson(
      whenFirstUsed((parsers) => parsers.json({ limit: limitBytes, type: ALREADY_MATCHED })),
      limitBytes,
    ),
    urlencoded: whenFirstUsed((parsers) =>
      parsers.urlencoded({ limit: limitBytes, extended: false, type: ALREADY_MATCHED }),
    ),
    multipart: parseMultipart,
  };
}

// Express's body parsers (body-parser, which `express.json()` is) load with the first request that
// has a body: a service that only answers GETs never loads them, and one that has not needed
// Express's helpers does not load Express for them.
function whenFirstUsed(create: (parsers: typeof BodyParser) => RequestHandler): RequestHandler {
  let parse: RequestHandler | undefined;
  return (req, res, next) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load
    parse ??= create(require('body-parser') as typeof BodyParser);
    return parse(req, res, next);
  };
}

function parseLimit(limit: string | number): number {
  const parsed = typeof limit === 'number' ? limit : SIZE.test(limit.trim()) ? bytes.parse(limit) : null;
  if (parsed === null || !Number.isFinite(parsed) || parsed <= 0) {
    throw LifecycleErrors.invalidOption(
      'bodyLimit',
      limit,
      "a positive byte count, or a size such as '512kb' or '1mb'",
    );
  }
  return parsed;
}

function multipartError(multer: typeof multerModule, error: unknown): HttpError {
  if (error instanceof multer.MulterError) {
    return (MULTIPART_LIMITS[error.code] ?? RequestErrors.malformedMultipart)(error);
  }
  // busboy reports a broken body (no boundary, truncated part) as a plain Error.
  return RequestErrors.malformedMultipart(error);
}
