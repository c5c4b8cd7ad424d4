import type { Class } from '../container/token';
import { RuleKind } from './class-validator-types';

const partials = new WeakMap<Class, Class>();

/**
 * A class with the fields and rules of `base`, each of them optional: a field the request leaves
 * out is not validated and stays absent from the bound value, a field it sends is validated by
 * `base`'s rules (`null` included). For PATCH: `Object.assign(entity, input)` then changes only what
 * was sent. The same class comes back for the same `base`; extend it to give it a name of its own.
 *
 * @example
 * export class OrderChanges extends PartialType(OrderInput) {}
 * const input = await ctx.bind(OrderChanges); // {} is valid; { quantity: 0 } is a 422
 */
export function PartialType<T extends object>(base: Class<T>): Class<Partial<T>> {
  const known = partials.get(base);
  if (known) return known as Class<Partial<T>>;
  if (typeof base !== 'function')
    throw new TypeError('PartialType(base) needs a class, such as PartialType(OrderInput)');
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded where validation classes are made */
  const { getMetadataStorage, ValidateIf } = require('class-validator') as typeof import('class-validator');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // A subclass inherits base's rules and its `@Type` and design types; only the condition is added.
  const partial = class extends (base as unknown as new () => object) {};
  Object.defineProperty(partial, 'name', { value: `Partial${base.name}` });
  const rules = getMetadataStorage().getTargetValidationMetadatas(base, '', true, false);
  const optional = new Set(
    rules.filter((rule) => rule.type === RuleKind.conditional).map((rule) => rule.propertyName),
  );
  for (const property of new Set(rules.map((rule) => rule.propertyName))) {
    if (!optional.has(property)) ValidateIf(isPresent)(partial.prototype, property);
  }
  partials.set(base, partial);
  return partial as unknown as Class<Partial<T>>;
}

function isPresent(_object: object, value: unknown): boolean {
  return value !== undefined;
}
