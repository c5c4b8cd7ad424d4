import { ContainerErrors } from '../errors/container-errors';
import { classDependencies, factoryDependencies, type Dependency } from './dependencies';
import type { Provider } from './provider';
import { tokenName, type Class, type Token } from './token';

/** The scope a record is resolved in: the module that declared it. */
export interface RecordScope {
  readonly name: string;
  readonly visible: ReadonlyMap<Token, ProviderRecord>;
}

/**
 * One provider (or controller) of one module, normalised: its dependencies and how to create it
 * from them. The container fills in `instance` once, at boot.
 */
export class ProviderRecord {
  instance: unknown = undefined;
  isResolved = false;

  constructor(
    readonly token: Token,
    readonly label: string,
    readonly scope: RecordScope,
    readonly dependencies: readonly Dependency[],
    readonly create: (args: unknown[]) => unknown,
    /** Only a factory's result is awaited: a class instance or value with a `then` method is kept as it is. */
    readonly awaitsResult = false,
  ) {}
}

/** Builds the record for one entry of a module's `providers` (or `controllers`). */
export function createRecord(provider: Provider, scope: RecordScope): ProviderRecord {
  if (typeof provider === 'function') return classRecord(provider, provider, scope);
  if (typeof provider !== 'object' || provider === null || !('provide' in provider)) {
    throw ContainerErrors.invalidProvider(scope.name, provider);
  }
  const { provide } = provider;
  if ('useClass' in provider && typeof provider.useClass === 'function') {
    return classRecord(provide, provider.useClass, scope);
  }
  if ('useValue' in provider) {
    const value = provider.useValue;
    return new ProviderRecord(provide, tokenName(provide), scope, [], () => value);
  }
  if ('useFactory' in provider && typeof provider.useFactory === 'function') {
    const factory = provider.useFactory as (...args: unknown[]) => unknown;
    const dependencies = factoryDependencies(provider.inject ?? []);
    return new ProviderRecord(
      provide,
      `${tokenName(provide)} (factory)`,
      scope,
      dependencies,
      (args) => factory(...args),
      true,
    );
  }
  if ('useExisting' in provider) {
    const dependencies = [{ token: provider.useExisting, optional: false, position: 'useExisting' }];
    return new ProviderRecord(
      provide,
      `${tokenName(provide)} (alias)`,
      scope,
      dependencies,
      ([target]) => target,
    );
  }
  throw ContainerErrors.invalidProvider(scope.name, provider);
}

function classRecord(token: Token, type: Class, scope: RecordScope): ProviderRecord {
  const construct = type as unknown as new (...args: unknown[]) => unknown;
  return new ProviderRecord(
    token,
    type.name,
    scope,
    classDependencies(type),
    (args) => new construct(...args),
  );
}
