import type { JsonSchema } from './json-schema';

type RuleSchema = (constraints: readonly unknown[]) => JsonSchema;

const stringFormat =
  (format: string): RuleSchema =>
  () => ({ type: 'string', format });

/**
 * What each class-validator rule (by the name class-validator records for it) says in JSON Schema.
 * A rule missing here constrains nothing in the document, though it still validates the request.
 *
 * @example
 * VALIDATION_RULES.min?.([1]); // { minimum: 1 }
 */
export const VALIDATION_RULES: Readonly<Record<string, RuleSchema>> = {
  isString: () => ({ type: 'string' }),
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  isBoolean: () => ({ type: 'boolean' }),
  isArray: () => ({ type: 'array' }),
  isObject: () => ({ type: 'object' }),
  isEmail: stringFormat('email'),
  isUrl: stringFormat('uri'),
  isUuid: stringFormat('uuid'),
  isDateString: stringFormat('date-time'),
  isIso8601: stringFormat('date-time'),
  isDate: stringFormat('date-time'),
  min: ([minimum]) => ({ minimum }),
  max: ([maximum]) => ({ maximum }),
  isPositive: () => ({ exclusiveMinimum: 0 }),
  isNegative: () => ({ exclusiveMaximum: 0 }),
  isDivisibleBy: ([multipleOf]) => ({ multipleOf }),
  isLength: ([minLength, maxLength]) => ({ type: 'string', minLength, maxLength }),
  minLength: ([minLength]) => ({ type: 'string', minLength }),
  maxLength: ([maxLength]) => ({ type: 'string', maxLength }),
  // minLength constrains only strings in JSON Schema, as isNotEmpty's '' does.
  isNotEmpty: () => ({ minLength: 1 }),
  matches: ([pattern]) => ({ type: 'string', pattern: pattern instanceof RegExp ? pattern.source : pattern }),
  contains: ([text]) => ({ type: 'string', pattern: escapePattern(String(text)) }),
  notContains: ([text]) => ({ type: 'string', not: { pattern: escapePattern(String(text)) } }),
  isAlpha: () => ({ type: 'string', pattern: '^[A-Za-z]+$' }),
  isAlphanumeric: () => ({ type: 'string', pattern: '^[A-Za-z0-9]+$' }),
  equals: ([value]) => ({ const: value }),
  isIn: ([values]) => ({ enum: values }),
  isNotIn: ([values]) => ({ not: { enum: values } }),
  isEnum: ([entity]) => ({ enum: enumValues(entity) }),
  arrayMinSize: ([minItems]) => ({ type: 'array', minItems }),
  arrayMaxSize: ([maxItems]) => ({ type: 'array', maxItems }),
  arrayNotEmpty: () => ({ type: 'array', minItems: 1 }),
  arrayUnique: () => ({ type: 'array', uniqueItems: true }),
};

// A numeric TypeScript enum also maps each value back to its name, under a numeric key; an enum
// member's own name is never numeric.
function enumValues(entity: unknown): unknown[] {
  return Object.entries(entity ?? {})
    .filter(([key]) => Number.isNaN(Number(key)))
    .map(([, value]: [string, unknown]) => value);
}

function escapePattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('\u0000', '\\u0000');
}
