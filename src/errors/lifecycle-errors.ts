import { messageOf } from './describe-value';
import { defineErrors } from './error-entry';

/**
 * A shutdown hook that threw, as the shutdown report names it.
 *
 * @example
 * const failure: ShutdownHookFailure = { instance: 'OrderQueue', hook: 'onApplicationShutdown', error };
 */
export interface ShutdownHookFailure {
  readonly instance: string;
  readonly hook: string;
  readonly error: unknown;
}

/**
 * What the shutdown report says: the hooks that threw, and how long requests outlived the timeout.
 *
 * @example
 * throw LifecycleErrors.shutdownFailed({ failures, timedOutAfterMs: undefined });
 */
export interface ShutdownReport {
  readonly failures: readonly ShutdownHookFailure[];
  readonly timedOutAfterMs: number | undefined;
}

/**
 * The errors of options, listening, load and shutting down: one entry per code, so each message is written once.
 *
 * @example
 * LifecycleErrors.invalidOption.code; // 'E_INVALID_OPTION'
 */
export const LifecycleErrors = defineErrors({
  invalidOption: {
    code: 'E_INVALID_OPTION',
    message: (option: string, value: unknown, expected: string) =>
      // JSON.stringify would print NaN and Infinity as null.
      `the option ${option} is ${typeof value === 'number' ? String(value) : JSON.stringify(value)}: expected ${expected}.`,
  },

  settingAfterListen: {
    code: 'E_SETTING_AFTER_LISTEN',
    message: (method: string) =>
      `${method} was called after listen(): the shutdown settings are fixed once the application listens.\n` +
      `Fix: call ${method} before app.listen() or app.run().`,
  },

  alreadyListening: {
    code: 'E_ALREADY_LISTENING',
    message: (url: string | undefined) =>
      `listen() was called a second time, but ${url ? `it already serves ${url}` : 'it is already starting to listen'}.\n` +
      `Fix: call listen() once per application; to serve a second port, mount app.express on another server.`,
  },

  applicationClosed: {
    code: 'E_APPLICATION_CLOSED',
    message: () =>
      `listen() was called after close(): the application's shutdown hooks have run.\n` +
      `Fix: create a new application with createApplication() to serve again.`,
  },

  shutdownFailed: {
    code: 'E_SHUTDOWN_FAILED',
    message: (report: ShutdownReport) => {
      const reasons = report.failures.map(
        ({ instance, hook, error }) => `${instance}.${hook} threw: ${messageOf(error)}`,
      );
      if (report.timedOutAfterMs !== undefined) {
        reasons.push(
          `requests were still in flight after shutdownTimeoutMs (${report.timedOutAfterMs} ms); their connections were closed`,
        );
      }
      return `the shutdown finished, but not cleanly:\n- ${reasons.join('\n- ')}`;
    },
    extras: (report: ShutdownReport) => {
      const errors = report.failures.map((failure) => failure.error);
      return errors.length > 0 ? { cause: new AggregateError(errors, 'shutdown hook failures') } : {};
    },
  },

  // Shed load: every request but the health routes', while a limit is passed.
  overloaded: {
    code: 'E_OVERLOADED',
    status: 503,
    message: () => 'overloaded',
  },
});
