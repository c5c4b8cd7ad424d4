import type { Token } from '../container/token';
import { MetadataKey } from '../metadata/keys';
import { defineMetadata, getOwnMetadata } from '../metadata/reflection';

/**
 * Marks a class as constructible by the container; TypeScript then records its constructor's
 * parameter types, which is how its dependencies are found.
 *
 * @example
 * @Injectable()
 * export class OrderService { constructor(private readonly clock: Clock) {} }
 */
export function Injectable(): ClassDecorator {
  return (target) => defineMetadata(MetadataKey.injectable, true, target);
}

/**
 * Injects the provider of `token` into this constructor parameter, for parameters whose type
 * cannot serve as the token (interfaces, strings, symbols, `InjectionToken`s).
 *
 * @example
 * constructor(@Inject(CONFIG) private readonly config: AppConfig) {}
 */
export function Inject(token: Token): ParameterDecorator {
  return (target, _property, index) => {
    const tokens = getOwnMetadata<ReadonlyMap<number, Token>>(MetadataKey.injectTokens, target) ?? new Map();
    defineMetadata(MetadataKey.injectTokens, new Map([...tokens, [index, token]]), target);
  };
}

/**
 * Lets this constructor parameter be `undefined` when no provider is visible, instead of a boot error.
 *
 * @example
 * constructor(@Optional() private readonly metrics?: Metrics) {}
 */
export function Optional(): ParameterDecorator {
  return (target, _property, index) => {
    const optional = getOwnMetadata<ReadonlySet<number>>(MetadataKey.optionalParams, target) ?? new Set();
    defineMetadata(MetadataKey.optionalParams, new Set([...optional, index]), target);
  };
}
