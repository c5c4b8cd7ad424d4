import { defineErrors } from './error-entry';

/**
 * The errors of sessions: one entry per code.
 *
 * @example
 * SessionErrors.invalidSecret.code; // 'E_INVALID_SESSION_SECRET'
 */
export const SessionErrors = defineErrors({
  invalidSecret: {
    code: 'E_INVALID_SESSION_SECRET',
    message: () =>
      `SessionModule.forRoot's secret gave no key, or an empty one: session cookies cannot be signed.\n` +
      `Fix: return a long random string (or several, newest first), e.g. from SESSION_SECRET.`,
  },

  invalidCsrfToken: {
    code: 'E_INVALID_CSRF_TOKEN',
    status: 403,
    message: () => 'invalid CSRF token',
  },
});
