import { FrameworkError } from '../framework-error';

/** The boot errors of guards, interceptors, filters and pipes: one builder per code. */
export const HookErrors = {
  invalidHook(source: string, kind: string, name: string, method: string) {
    return new FrameworkError(
      'E_INVALID_HOOK',
      `${source} uses ${name} as ${kind}, but it has no ${method}() method.\n` +
        `Fix: give ${name} a ${method}() method, or remove it from the decorator.`,
    );
  },
};
