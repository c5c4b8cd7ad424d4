import { ContainerErrors } from '../errors/container-errors';
import { MetadataKey } from '../metadata/keys';
import { isApplicationClass } from '../metadata/design-types';
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
  const owner = constructorOwner(type);
  const paramTypes = getConstructorParamTypes(owner);
  const injected = getOwnMetadata<ReadonlyMap<number, Token>>(MetadataKey.injectTokens, owner) ?? new Map();
  const optional = getOwnMetadata<ReadonlySet<number>>(MetadataKey.optionalParams, owner) ?? new Set();
  const count = Math.max(paramTypes?.length ?? 0, owner.length, ...[...injected.keys()].map((i) => i + 1));
  if (count > 0 && paramTypes === undefined && injected.size < count) {
    // Decorated but without types: the compiler emitted no metadata (tsx and esbuild never do).
    const isDecorated = isDecoratedClass(owner);
    throw isDecorated ? ContainerErrors.noTypeMetadata(type.name) : ContainerErrors.notInjectable(type.name);
  }

  return Array.from({ length: count }, (_, index) => {
    const token = injected.get(index) ?? paramTypes?.[index];
    if (!isUsableToken(token)) throw ContainerErrors.untypedDependency(type.name, index, token === undefined);
    return { token, optional: optional.has(index), position: `constructor parameter #${index}` };
  });
}

// A subclass that declares no constructor runs its parent's: its dependencies are the parent's.
// (Such a subclass has `length` 0 and no parameter types of its own.)
function constructorOwner(type: Class): Class {
  let owner = type;
  while (owner.length === 0 && !hasOwnInjectionMetadata(owner)) {
    const parent: unknown = Object.getPrototypeOf(owner);
    if (typeof parent !== 'function' || parent === Function.prototype) return type;
    owner = parent as Class;
  }
  return owner;
}

function isDecoratedClass(type: Class): boolean {
  return (
    getOwnMetadata(MetadataKey.injectable, type) === true ||
    getOwnMetadata(MetadataKey.controller, type) !== undefined
  );
}

function hasOwnInjectionMetadata(type: Class): boolean {
  return (
    getConstructorParamTypes(type) !== undefined ||
    getOwnMetadata(MetadataKey.injectTokens, type) !== undefined
  );
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

function isUsableToken(token: unknown): token is Token {
  if (typeof token === 'function') return isApplicationClass(token);
  return (
    typeof token === 'string' || typeof token === 'symbol' || (typeof token === 'object' && token !== null)
  );
}
