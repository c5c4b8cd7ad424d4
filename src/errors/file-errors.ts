import { defineErrors } from './error-entry';

/**
 * The answers of `ctx.sendFile` that are not the file: it is missing, outside the root it was
 * given, changed since the client's condition, or the range asked for is past its end.
 *
 * @example
 * FileErrors.fileNotFound.code; // 'E_FILE_NOT_FOUND'
 */
export const FileErrors = defineErrors({
  fileNotFound: {
    code: 'E_FILE_NOT_FOUND',
    status: 404,
    message: () => 'file not found',
  },

  // Answered as a missing file, so that a client probing with `..` learns nothing of what exists.
  fileOutsideRoot: {
    code: 'E_FILE_OUTSIDE_ROOT',
    status: 404,
    message: () => 'file not found',
  },

  rangeNotSatisfiable: {
    code: 'E_RANGE_NOT_SATISFIABLE',
    status: 416,
    message: (_contentRange: string) => 'range not satisfiable',
    extras: (contentRange: string) => ({ headers: { 'Content-Range': contentRange } }),
  },

  preconditionFailed: {
    code: 'E_PRECONDITION_FAILED',
    status: 412,
    message: () => 'precondition failed',
  },

  fileUnreadable: {
    code: 'E_FILE_UNREADABLE',
    status: 500,
    message: (reason: string, _cause?: unknown) => `the file cannot be read: ${reason}`,
    extras: (_reason: string, cause?: unknown) => ({ cause }),
  },
});
