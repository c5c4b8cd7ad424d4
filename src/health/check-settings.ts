import { checkBoolean, checkMilliseconds } from '../lifecycle/option-checks';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import type { CheckFunction, CheckProvider, HealthCheck } from './health-check';
import type { Class } from '../container/token';

/** One named check of `HealthOptions.checks`, with its defaults filled in. */
export interface CheckSettings {
  readonly name: string;
  /** The check function, or the class DI builds whose `check` it is. */
  readonly run: CheckFunction | Class<CheckProvider>;
  readonly isOptional: boolean;
  readonly timeoutMs: number;
}

// The keys the readiness body has already.
const RESERVED_NAMES = new Set(['status', 'db', 'load']);

/**
 * The named checks of the health options, each with its own bound or `timeoutMs`; a check of the
 * wrong kind, or named like a key readiness already answers with, is a boot error.
 *
 * @example
 * resolveChecks({ redis: redisCheck(() => redis) }, 500);
 */
export function resolveChecks(
  checks: Readonly<Record<string, HealthCheck>> | undefined,
  timeoutMs: number,
): readonly CheckSettings[] {
  return Object.entries(checks ?? {}).map(([name, check]) => {
    const option = `health checks.${name}`;
    if (name === '' || RESERVED_NAMES.has(name))
      throw LifecycleErrors.invalidOption(option, name, 'a name other than "", "status", "db" and "load"');
    if (typeof check === 'function') return { name, run: check, isOptional: false, timeoutMs };
    if (typeof check !== 'object' || check === null || typeof check.check !== 'function')
      throw LifecycleErrors.invalidOption(
        option,
        check,
        'a function, { check, optional?, timeoutMs? } or a class with check()',
      );
    const ownTimeoutMs = checkMilliseconds(`${option}.timeoutMs`, check.timeoutMs ?? timeoutMs);
    return {
      name,
      run: check.check,
      isOptional: checkBoolean(`${option}.optional`, check.optional ?? false),
      timeoutMs: Math.max(ownTimeoutMs, 1),
    };
  });
}
