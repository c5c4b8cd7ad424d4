import type { FactoryProvider, OptionalDependency, ValueProvider } from './provider';
import type { InjectionToken, Token } from './token';

/**
 * A module's options made at boot from other providers (the configuration, most often): `inject`
 * lists the tokens whose instances `useFactory` receives, in order, as a factory provider's do.
 *
 * @example
 * DatabaseModule.forRoot({ inject: [Env], useFactory: (env: Env) => ({ type: 'postgres', url: env.DATABASE_URL }) })
 */
export interface OptionsFactory<T> {
  inject?: readonly (Token | OptionalDependency)[];
  useFactory: (...args: never[]) => T | Promise<T>;
}

/** Tells options made by a factory from options given as they are. @example isOptionsFactory(options) */
export function isOptionsFactory<T>(options: T | OptionsFactory<T>): options is OptionsFactory<T> {
  return typeof options === 'object' && options !== null && 'useFactory' in options;
}

/**
 * The provider of a module's options under `token`: the factory's, with its `inject`, or the
 * options themselves; `check` turns them into the module's settings (a boot error when they are
 * wrong). A factory that throws, or an `inject` token the module cannot see, fails the boot naming
 * the token and the module.
 *
 * @example
 * optionsProvider(METRICS_SETTINGS, options, resolveMetricsOptions)
 */
export function optionsProvider<T, S>(
  token: InjectionToken<S>,
  options: T | OptionsFactory<T>,
  check: (options: T) => S,
): FactoryProvider<S> | ValueProvider<S> {
  // Options given as they are are checked at once, where forRoot is called.
  if (!isOptionsFactory(options)) return { provide: token, useValue: check(options) };
  const factory = options.useFactory as (...args: unknown[]) => T | Promise<T>;
  return {
    provide: token,
    useFactory: async (...args: unknown[]) => check(await factory(...args)),
    inject: options.inject ?? [],
  };
}
