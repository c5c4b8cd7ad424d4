import { defineErrors } from './error-entry';

/**
 * The errors of guards, interceptors, filters and pipes: one entry per code.
 *
 * @example
 * HookErrors.invalidHook.code; // 'E_INVALID_HOOK'
 */
export const HookErrors = defineErrors({
  invalidHook: {
    code: 'E_INVALID_HOOK',
    message: (source: string, kind: string, name: string, method: string) =>
      `${source} uses ${name} as ${kind}, but it has no ${method}() method.\n` +
      `Fix: give ${name} a ${method}() method, or remove it from the decorator.`,
  },

  // A guard's `false`.
  forbidden: {
    code: 'E_FORBIDDEN',
    status: 403,
    message: () => 'forbidden',
  },

  // A pipe's refusal: `where` names the parameter (`path parameter "id"`).
  invalidParameter: {
    code: 'E_INVALID_PARAMETER',
    status: 400,
    message: (where: string, problem: string) => `${where} ${problem}`,
  },
});
