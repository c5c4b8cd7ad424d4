import type { Class } from '../container/token';

/**
 * A dependency's check: resolving means healthy; throwing or rejecting means unhealthy, its message
 * the reason. `signal` is aborted when the check's time is up, so a check that can stop (a fetch)
 * stops then.
 *
 * @example
 * const search: CheckFunction = async (signal) => { await fetch(searchUrl, { signal }); };
 */
export type CheckFunction = (signal: AbortSignal) => unknown;

/** A check with how it counts: `optional` failing leaves readiness 200; `timeoutMs` its own bound. */
export interface CheckDefinition {
  readonly check: CheckFunction;
  /** A failure shows its reason but does not make readiness 503. Default: `false`. */
  readonly optional?: boolean;
  /** How long the check may take. Default: the health `timeoutMs`. */
  readonly timeoutMs?: number;
}

/** An `@Injectable()` class whose `check(signal)` is the check, built through DI. */
export interface CheckProvider {
  check(signal: AbortSignal): unknown;
}

/**
 * One named dependency of readiness: a function, a {@link CheckDefinition}, or an `@Injectable()`
 * class with `check(signal)`.
 *
 * @example
 * HealthModule.forRoot({ checks: { redis: redisCheck(() => redis), search: { check, optional: true } } });
 */
export type HealthCheck = CheckFunction | CheckDefinition | Class<CheckProvider>;

/** True for a class with a `check` method on its prototype, as opposed to a check function. @example isCheckProvider(RedisHealth) */
export function isCheckProvider(check: HealthCheck): check is Class<CheckProvider> {
  const { prototype } = check as { prototype?: { check?: unknown } };
  return typeof check === 'function' && typeof prototype?.check === 'function';
}
