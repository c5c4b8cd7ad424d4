import type { Class } from '../container/token';
import { HookErrors } from '../errors/hook-errors';
import { describeValue } from '../errors/describe-value';
import type { HookEntry } from './hook-types';

/** What resolving one hook needs: what it is, the method it must have, and who named it. */
export interface HookRequirement {
  /** As the error message says it: `a guard`, `an interceptor`, `a filter`, `a pipe`. */
  readonly kind: string;
  readonly method: string;
  /** Who named the hook, such as `OrderController.show`. */
  readonly source: string;
  readonly resolve: <T>(type: Class<T>) => T;
}

/**
 * Turns a hook as a decorator names it into the instance that runs: a class is built through DI
 * (once per module), an instance is taken as it is; one without the required method is a boot error.
 *
 * @example
 * const guard = resolveHook<CanActivate>(AuthGuard, { kind: 'a guard', method: 'canActivate', source, resolve });
 */
export function resolveHook<T>(entry: HookEntry<T>, requirement: HookRequirement): T {
  const isClass = typeof entry === 'function';
  const instance = isClass ? requirement.resolve(entry as Class<T>) : entry;
  const method = (instance as Record<string, unknown> | null | undefined)?.[requirement.method];
  if (typeof method !== 'function') {
    throw HookErrors.invalidHook(requirement.source, requirement.kind, hookName(entry), requirement.method);
  }
  return instance;
}

// A class by its name; an instance by its class's name, or as error messages show any other value.
function hookName(entry: unknown): string {
  if (typeof entry === 'function') return entry.name || '<anonymous class>';
  const type = (entry as object | null | undefined)?.constructor;
  return type && type !== Object ? type.name : describeValue(entry);
}
