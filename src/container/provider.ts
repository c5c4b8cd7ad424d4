import type { Class, Token } from './token';

/**
 * A factory dependency that resolves to `undefined` when nothing provides it.
 *
 * @example
 * { provide: Reporter, useFactory: (metrics?: Metrics) => new Reporter(metrics), inject: [{ token: Metrics, optional: true }] }
 */
export interface OptionalDependency {
  token: Token;
  optional: true;
}

/**
 * Registers `useClass` (constructed with its own dependencies) under `provide`.
 *
 * @example
 * { provide: Mailer, useClass: SmtpMailer }
 */
export interface ClassProvider<T = unknown> {
  provide: Token<T>;
  useClass: Class<T>;
}

/**
 * Registers a ready value under `provide`.
 *
 * @example
 * { provide: CONFIG, useValue: { region: 'eu-west-1' } }
 */
export interface ValueProvider<T = unknown> {
  provide: Token<T>;
  useValue: T;
}

/**
 * Registers what `useFactory` returns (or resolves to) under `provide`; `inject` lists the
 * tokens whose instances are passed to it, in order.
 *
 * @example
 * { provide: CONFIG, useFactory: async (env: Env) => load(env), inject: [Env] }
 */
export interface FactoryProvider<T = unknown> {
  provide: Token<T>;
  useFactory: (...args: never[]) => T | Promise<T>;
  inject?: readonly (Token | OptionalDependency)[];
}

/**
 * Makes `provide` another name for the provider of `useExisting`: both give the same instance.
 *
 * @example
 * { provide: 'Clock', useExisting: SystemClock }
 */
export interface ExistingProvider<T = unknown> {
  provide: Token<T>;
  useExisting: Token<T>;
}

/** Anything a module can list in `providers`: a class is shorthand for `{ provide: C, useClass: C }`. */
export type Provider<T = unknown> =
  Class<T> | ClassProvider<T> | ValueProvider<T> | FactoryProvider<T> | ExistingProvider<T>;
