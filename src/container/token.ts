/** A class that can be constructed with any arguments. */
export type Class<T = unknown> = new (...args: never[]) => T;

/**
 * A typed token for values that have no class of their own (configuration, factories' results).
 *
 * @example
 * export const CONFIG = new InjectionToken<AppConfig>('CONFIG');
 * constructor(@Inject(CONFIG) config: AppConfig) {}
 */
export class InjectionToken<T> {
  declare readonly __type?: T;
  /**
   * Whether every module may provide it again, each provider adding one more instance rather than
   * replacing the last (`APP_GUARD`): read them all with `container.getAll(token)`.
   */
  readonly isMulti: boolean;

  constructor(
    readonly description: string,
    options: { readonly multi?: boolean } = {},
  ) {
    this.isMulti = options.multi === true;
  }

  toString(): string {
    return `InjectionToken(${this.description})`;
  }
}

/** What a provider is registered under and a dependency asks for. */
export type Token<T = unknown> = Class<T> | InjectionToken<T> | string | symbol;

export { tokenName } from '../errors/describe-value';
