import { MetadataKey } from '../metadata/keys';
import { appendMetadata, getMetadata } from '../metadata/reflection';
import type { JsonSchema } from './json-schema';

/**
 * A validation rule of the application's own (made with class-validator's `ValidateBy` or
 * `registerDecorator`) that states what it enforces as JSON Schema, so that the OpenAPI document
 * shows it as it shows class-validator's own rules. The rule validates exactly as before.
 *
 * @example
 * export const Characters = (min: number, max: number) =>
 *   documentedRule({ type: 'string', minLength: min, maxLength: max }, ValidateBy({ name: 'characters', validator }));
 */
export function documentedRule(schema: JsonSchema, rule: PropertyDecorator): PropertyDecorator {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    throw new TypeError('documentedRule(schema, rule) needs a JSON Schema object, such as { maxLength: 80 }');
  if (typeof rule !== 'function')
    throw new TypeError('documentedRule(schema, rule) needs the rule decorator, such as ValidateBy({...})');
  return (prototype, property) => {
    rule(prototype, property);
    appendMetadata(MetadataKey.ruleSchemas, schema, prototype, property);
  };
}

/** The schemas `documentedRule` recorded for `property` of a class (or a class it extends), in order. @example documentedSchemas(OrderInput, 'customer') */
export function documentedSchemas(prototype: object, property: string): readonly JsonSchema[] {
  return getMetadata<readonly JsonSchema[]>(MetadataKey.ruleSchemas, prototype, property) ?? [];
}
