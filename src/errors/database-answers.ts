import { defineErrors } from './error-entry';

/**
 * What a request is told when the database is away, or refuses the request's own input: one entry per code, each with its status. The input answers name the column or constraint after the message.
 *
 * @example
 * DatabaseAnswers.databaseUnavailable.code; // 'E_DATABASE_UNAVAILABLE'
 */
export const DatabaseAnswers = defineErrors({
  // Retry-After comes with it; the outage is logged once by the database's bounds, not per request.
  databaseUnavailable: {
    code: 'E_DATABASE_UNAVAILABLE',
    status: 503,
    message: () => 'database unavailable',
  },

  // Before the first connection: shown, though a 5xx, so that the client knows to come back.
  databaseNotConnected: {
    code: 'E_DATABASE_NOT_CONNECTED',
    status: 503,
    message: (_retryAfterSeconds: number) => 'database not connected',
    extras: (retryAfterSeconds: number) => ({
      expose: true,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
  },

  valueTooLong: { code: 'E_VALUE_TOO_LONG', status: 422, message: () => 'value too long' },
  valueOutOfRange: { code: 'E_VALUE_OUT_OF_RANGE', status: 422, message: () => 'value out of range' },
  valueRequired: { code: 'E_VALUE_REQUIRED', status: 422, message: () => 'value required' },
  checkViolated: { code: 'E_CHECK_VIOLATED', status: 422, message: () => 'value breaks a check constraint' },
  invalidInputValue: { code: 'E_INVALID_INPUT_VALUE', status: 400, message: () => 'invalid input value' },
  valueAlreadyExists: { code: 'E_VALUE_ALREADY_EXISTS', status: 409, message: () => 'value already exists' },
  foreignKeyViolated: {
    code: 'E_FOREIGN_KEY_VIOLATED',
    status: 409,
    message: () => 'value breaks a foreign key',
  },
});
