import { IsInt, IsString, ValidateBy, type ValidationArguments } from 'class-validator';
import { documentedRule } from 'keel';

// Each rule passes a value of the wrong type: the type rule reports it, once, as the field's only
// message, rather than every rule failing on it.

/** A string, else "is required" when absent and "must be text" otherwise. */
export function IsText(field: string): PropertyDecorator {
  return IsString({ message: (args) => (isAbsent(args) ? `${field} is required` : `${field} must be text`) });
}

/** A whole number, else "is required" when absent and "must be a whole number" otherwise. */
export function IsWholeNumber(field: string): PropertyDecorator {
  return IsInt({
    message: (args) => (isAbsent(args) ? `${field} is required` : `${field} must be a whole number`),
  });
}

/**
 * From `min` to `max` characters as PostgreSQL's varchar counts them (code points): validator.js's
 * length does not count variation selectors, and would let through what the column refuses.
 */
export function Characters(field: string, min: number, max: number): PropertyDecorator {
  // JSON Schema counts code points too, so the document states exactly this rule.
  return documentedRule(
    { minLength: min, maxLength: max },
    ValidateBy({
      name: 'characters',
      validator: {
        validate: (value) => typeof value !== 'string' || between([...value].length, min, max),
        defaultMessage: () => `${field} must be ${min} to ${max} characters`,
      },
    }),
  );
}

/** Without a NUL character, which PostgreSQL's text cannot hold. */
export function WithoutNul(field: string): PropertyDecorator {
  return documentedRule(
    { pattern: '^[^\\u0000]*$' },
    ValidateBy({
      name: 'withoutNul',
      validator: {
        validate: (value) => typeof value !== 'string' || !value.includes('\u0000'),
        defaultMessage: () => `${field} must not contain a NUL character`,
      },
    }),
  );
}

/** From `min` to `max`, saying which bound it missed. */
export function InRange(field: string, min: number, max: number): PropertyDecorator {
  return documentedRule(
    { minimum: min, maximum: max },
    ValidateBy({
      name: 'inRange',
      validator: {
        validate: (value) => typeof value !== 'number' || between(value, min, max),
        defaultMessage: (args) =>
          (args?.value as number) < min
            ? `${field} must be at least ${min}`
            : `${field} must be at most ${max}`,
      },
    }),
  );
}

function isAbsent(args: ValidationArguments): boolean {
  return args.value === undefined || args.value === null;
}

function between(value: number, min: number, max: number): boolean {
  return value >= min && value <= max;
}
