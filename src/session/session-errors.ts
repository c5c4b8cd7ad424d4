import { FrameworkError } from '../framework-error';

/** The boot errors of sessions: one builder per code. */
export const SessionErrors = {
  invalidSecret() {
    return new FrameworkError(
      'E_INVALID_SESSION_SECRET',
      `SessionModule.forRoot's secret gave no key, or an empty one: session cookies cannot be signed.\n` +
        `Fix: return a long random string (or several, newest first), e.g. from SESSION_SECRET.`,
    );
  },
};
