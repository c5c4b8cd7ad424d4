import type { HookFailure } from './lifecycle-hooks';
import { FrameworkError, messageOf } from '../framework-error';

/** The errors of options, listening and shutting down: one builder per code, so each message is written once. */
export const LifecycleErrors = {
  invalidOption(option: string, value: unknown, expected: string) {
    // JSON.stringify would print NaN and Infinity as null.
    const shown = typeof value === 'number' ? String(value) : JSON.stringify(value);
    return new FrameworkError('E_INVALID_OPTION', `the option ${option} is ${shown}: expected ${expected}.`);
  },

  settingAfterListen(method: string) {
    return new FrameworkError(
      'E_ALREADY_LISTENING',
      `${method} was called after listen(): the shutdown settings are fixed once the application listens.\n` +
        `Fix: call ${method} before app.listen() or app.run().`,
    );
  },

  alreadyListening(url: string | undefined) {
    const where = url ? `it already serves ${url}` : 'it is already starting to listen';
    return new FrameworkError(
      'E_ALREADY_LISTENING',
      `listen() was called a second time, but ${where}.\n` +
        `Fix: call listen() once per application; to serve a second port, mount app.express on another server.`,
    );
  },

  applicationClosed() {
    return new FrameworkError(
      'E_APPLICATION_CLOSED',
      `listen() was called after close(): the application's shutdown hooks have run.\n` +
        `Fix: create a new application with createApplication() to serve again.`,
    );
  },

  shutdownFailed(p: { failures: readonly HookFailure[]; timedOutAfterMs: number | undefined }) {
    const reasons = p.failures.map(
      ({ instance, hook, error }) => `${instance}.${hook} threw: ${messageOf(error)}`,
    );
    if (p.timedOutAfterMs !== undefined) {
      reasons.push(
        `requests were still in flight after shutdownTimeoutMs (${p.timedOutAfterMs} ms); their connections were closed`,
      );
    }
    const errors = p.failures.map((failure) => failure.error);
    return new FrameworkError(
      'E_SHUTDOWN_FAILED',
      `the shutdown finished, but not cleanly:\n- ${reasons.join('\n- ')}`,
      errors.length > 0 ? { cause: new AggregateError(errors, 'shutdown hook failures') } : undefined,
    );
  },
};
