import { Errors } from '../errors';
import { MetadataKey } from '../metadata/keys';
import { getConstructorParamTypes, getOwnMetadata } from '../metadata/reflection';
import type { OptionalDependency } from './provider';
import type { Class, Token } from './token';

/** One thing a provider needs, in the order it receives it. */
export interface Dependency {
  readonly token: Token;
  readonly optional: boolean;
  /** Where it was asked for, for error messages: `constructor parameter #0`, `inject[1]`. */
  readonly position: string;
}

/**
 * Reads a class's constructor dependencies from `design:paramtypes`, `@Inject` and `@Optional`.
 * Called once per class at boot.
 */
export function classDependencies(type: Class): Dependency[] {
  const paramTypes = getConstructorParamTypes(type);
  const injected = getOwnMetadata<ReadonlyMap<number, Token>>(MetadataKey.injectTokens, type) ?? new Map();
  const optional = getOwnMetadata<ReadonlySet<number>>(MetadataKey.optionalParams, type) ?? new Set();
  const count = Math.max(paramTypes?.length ?? 0, type.length, ...[...injected.keys()].map((i) => i + 1));
  if (count > 0 && paramTypes === undefined && injected.size < count) throw Errors.notInjectable(type.name);

  return Array.from({ length: count }, (_, index) => {
    const token = injected.get(index) ?? paramTypes?.[index];
    if (!isUsableToken(token)) throw Errors.untypedDependency(type.name, index);
    return { token, optional: optional.has(index), position: `constructor parameter #${index}` };
  });
}

/** Turns a factory provider's `inject` list into dependencies. */
export function factoryDependencies(inject: readonly (Token | OptionalDependency)[]): Dependency[] {
  return inject.map((entry, index) => {
    const isOptional = typeof entry === 'object' && entry !== null && 'optional' in entry && 'token' in entry;
    return {
      token: isOptional ? entry.token : (entry as Token),
      optional: isOptional ? entry.optional : false,
      position: `inject[${index}]`,
    };
  });
}

// `Object` is what TypeScript emits for interfaces, unions and type-only imports: never a real dependency.
function isUsableToken(token: unknown): token is Token {
  if (token === Object || token === undefined || token === null) return false;
  if (token === String || token === Number || token === Boolean || token === Array || token === Function)
    return false;
  return ['function', 'string', 'symbol', 'object'].includes(typeof token);
}
