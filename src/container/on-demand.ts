import type { Token } from './token';

// The methods of the classes keel builds through DI when it first needs them, listed in providers
// or not: middleware (`app.use`, `@UseMiddleware`), and the guards, interceptors, filters and pipes
// decorators name.
const ON_DEMAND_METHODS = ['use', 'canActivate', 'intercept', 'catch', 'transform'] as const;

/**
 * Whether `token` is a class keel may build on demand, so that overriding it is meaningful even
 * though no module provides it.
 *
 * @example
 * isBuiltOnDemand(RequestIdMiddleware) // true: it has a `use` method
 */
export function isBuiltOnDemand(token: Token): boolean {
  if (typeof token !== 'function') return false;
  const prototype = token.prototype as Record<string, unknown> | undefined;
  return ON_DEMAND_METHODS.some((method) => typeof prototype?.[method] === 'function');
}
