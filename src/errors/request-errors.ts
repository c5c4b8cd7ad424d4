import { defineErrors } from './error-entry';
import type { FieldErrors } from './http-error';

// The parsers' own error goes along as the cause, for the log.
const causedBy = (cause: unknown) => ({ cause });

/**
 * The answers keel gives a request it cannot serve as asked (no route, a body it cannot read, input that fails validation) and the 500 of an unknown error: one entry per code, each with its status.
 *
 * @example
 * RequestErrors.routeNotFound.code; // 'E_ROUTE_NOT_FOUND'
 */
export const RequestErrors = defineErrors({
  routeNotFound: {
    code: 'E_ROUTE_NOT_FOUND',
    status: 404,
    message: (method: string, path: string) => `no route for ${method} ${path}`,
  },

  methodNotAllowed: {
    code: 'E_METHOD_NOT_ALLOWED',
    status: 405,
    message: (method: string, path: string) => `method ${method} not allowed on ${path}`,
  },

  malformedPath: {
    code: 'E_MALFORMED_PATH',
    status: 400,
    message: () => 'malformed percent-encoding in the path',
  },

  malformedRequest: {
    code: 'E_MALFORMED_REQUEST',
    status: 400,
    message: () => 'malformed request',
  },

  requestTimeout: {
    code: 'E_REQUEST_TIMEOUT',
    status: 408,
    message: () => 'request timeout',
  },

  headersTooLarge: {
    code: 'E_HEADERS_TOO_LARGE',
    status: 431,
    message: () => 'request headers too large',
  },

  malformedJson: {
    code: 'E_MALFORMED_JSON',
    status: 400,
    message: () => 'malformed JSON body',
  },

  bodyTooLarge: {
    code: 'E_BODY_TOO_LARGE',
    status: 413,
    message: () => 'request body too large',
  },

  bodyShorterThanLength: {
    code: 'E_BODY_SHORTER_THAN_LENGTH',
    status: 400,
    message: () => 'request body shorter than its Content-Length',
  },

  requestAborted: {
    code: 'E_REQUEST_ABORTED',
    status: 400,
    message: () => 'request aborted',
  },

  unsupportedEncoding: {
    code: 'E_UNSUPPORTED_ENCODING',
    status: 415,
    message: () => 'unsupported content encoding',
  },

  unsupportedCharset: {
    code: 'E_UNSUPPORTED_CHARSET',
    status: 415,
    message: () => 'unsupported charset',
  },

  // zlib's own errors, from a body whose Content-Encoding does not match its bytes.
  encodingMismatch: {
    code: 'E_ENCODING_MISMATCH',
    status: 400,
    message: () => 'request body does not match its Content-Encoding',
  },

  unsupportedContentType: {
    code: 'E_UNSUPPORTED_CONTENT_TYPE',
    status: 415,
    message: (contentType: string) => `unsupported content type "${contentType}": send JSON or a form`,
  },

  validationFailed: {
    code: 'E_VALIDATION_FAILED',
    status: 422,
    message: (_fields: FieldErrors) => 'validation failed',
    extras: (fields: FieldErrors) => ({ fields }),
  },

  lengthRequired: {
    code: 'E_LENGTH_REQUIRED',
    status: 411,
    message: () => 'a multipart body needs a Content-Length',
  },

  malformedMultipart: {
    code: 'E_MALFORMED_MULTIPART',
    status: 400,
    message: (_cause: unknown) => 'malformed multipart body',
    extras: causedBy,
  },

  uploadedFileTooLarge: {
    code: 'E_UPLOADED_FILE_TOO_LARGE',
    status: 413,
    message: (_cause: unknown) => 'uploaded file too large',
    extras: causedBy,
  },

  formFieldTooLarge: {
    code: 'E_FORM_FIELD_TOO_LARGE',
    status: 413,
    message: (_cause: unknown) => 'form field too large',
    extras: causedBy,
  },

  tooManyFormParts: {
    code: 'E_TOO_MANY_FORM_PARTS',
    status: 413,
    message: (_cause: unknown) => 'too many form parts',
    extras: causedBy,
  },

  tooManyFiles: {
    code: 'E_TOO_MANY_FILES',
    status: 413,
    message: (_cause: unknown) => 'too many files',
    extras: causedBy,
  },

  // From a urlencoded body (body-parser) or a multipart one (multer).
  tooManyFormFields: {
    code: 'E_TOO_MANY_FORM_FIELDS',
    status: 413,
    message: (_cause?: unknown) => 'too many form fields',
    extras: causedBy,
  },

  formFieldNameTooLong: {
    code: 'E_FORM_FIELD_NAME_TOO_LONG',
    status: 413,
    message: (_cause: unknown) => 'form field name too long',
    extras: causedBy,
  },

  fileFieldMissing: {
    code: 'E_FILE_FIELD_MISSING',
    status: 415,
    message: (field: string) => `expected a multipart/form-data body with the file field "${field}"`,
  },

  tooManyFilesInField: {
    code: 'E_TOO_MANY_FILES_IN_FIELD',
    status: 413,
    message: (field: string, maxCount: number) => `too many files in "${field}": at most ${maxCount}`,
  },

  fileTooLarge: {
    code: 'E_FILE_TOO_LARGE',
    status: 413,
    message: (field: string, maxBytes: number) => `the file in "${field}" is larger than ${maxBytes} bytes`,
  },

  // An error that carries no status of its own: its message goes to the log, never to the client.
  internalServerError: {
    code: 'E_INTERNAL_SERVER_ERROR',
    status: 500,
    message: () => 'internal server error',
  },
});
