import type { FieldErrors } from '../errors';
import { Uncompiled } from './binding-copy';
import type { RuleConstraint, ValidationRule } from './class-validator-types';

/** What runs a rule: its validator class's instance, as class-validator's container gives it. */
export interface RuleValidator {
  validate(value: unknown, args: object): unknown;
  defaultMessage?: unknown;
}

/** One rule of a property with the class that runs it and that class's instance, as a compiled binding holds them. */
export interface BoundRule {
  readonly rule: ValidationRule;
  readonly constraint: RuleConstraint;
  readonly validator: RuleValidator;
}

/** The messages of one property, by rule name, in the order class-validator reports them. */
export type Failures = Record<string, string> | undefined;

/** A compiled class: what validates one of its instances, its failures under `prefix`. */
export interface CompiledClass {
  readonly type: abstract new (...args: never[]) => unknown;
  validate: (instance: object, prefix: string) => FieldErrors | undefined;
}

type ReplaceTokens = (message: unknown, args: object) => string;

let replaceTokens: ReplaceTokens | undefined;

type Utilities = typeof import('class-validator/types/validation/ValidationUtils');

// class-validator's own replacement of `$property`, `$value`, `$constraint1`..., which its index does not export.
function messageOf(message: unknown, args: object): string {
  /* eslint-disable @typescript-eslint/no-require-imports -- deferred load, as bind's */
  replaceTokens ??= (require('class-validator/cjs/validation/ValidationUtils') as Utilities).ValidationUtils
    .replaceMessageSpecialTokens as ReplaceTokens;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return replaceTokens(message, args);
}

function argumentsOf(rule: ValidationRule, object: object, value: unknown): object {
  return {
    targetName: object.constructor ? object.constructor.name : undefined,
    property: rule.propertyName,
    object,
    value,
    constraints: rule.constraints,
  };
}

function isPromise(value: unknown): boolean {
  return (
    value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Runs a rule the compiled code does not inline, as class-validator does: its `validateIf`, each
 * member of a list under `each`; a promise means the rule is async, which only class-validator runs.
 */
export function passes({ rule, validator: instance }: BoundRule, object: object, value: unknown): boolean {
  if (rule.validateIf && !rule.validateIf(object, value)) return true;
  const args = argumentsOf(rule, object, value);
  if (!rule.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map)) {
    const result = instance.validate(value, args);
    if (isPromise(result)) throw new Uncompiled(true);
    return Boolean(result);
  }
  const members: unknown[] = value instanceof Map ? [...value.values()] : [...(value as Iterable<unknown>)];
  const results = members.map((member) => instance.validate(member, args));
  if (results.some(isPromise)) throw new Uncompiled(true);
  return results.every(Boolean);
}

/** `failures` with the message of a broken rule added, worded as class-validator words it. */
export function fail(
  failures: Failures,
  { rule, constraint, validator: instance }: BoundRule,
  object: object,
  value: unknown,
): Failures {
  const args = argumentsOf(rule, object, value);
  let message: unknown = rule.message || '';
  if (!rule.message) {
    if (instance.defaultMessage instanceof Function) message = instance.defaultMessage(args) as unknown;
  }
  const found = failures ?? {};
  found[constraint.name ? constraint.name : rule.type] = messageOf(message, args);
  return found;
}

/** `failures` with the message of `@ValidateNested` for a value that is no object or list. */
export function failNested(failures: Failures, rule: ValidationRule, value: unknown): Failures {
  const found = failures ?? {};
  found[rule.type] = messageOf(rule.message || '', argumentsOf(rule, rule.target as object, value));
  return found;
}

/** The failures of a nested value (an instance, or a list of them) under `path`. */
export function nested(
  value: object,
  compiled: CompiledClass,
  rule: ValidationRule,
  path: string,
): FieldErrors | undefined {
  if (Array.isArray(value)) return nestedList(value, compiled, rule, path);
  if (value instanceof Set || value instanceof Map) throw new Uncompiled(false);
  if (value.constructor !== compiled.type) throw new Uncompiled(false);
  return compiled.validate(value, `${path}.`);
}

function nestedList(
  list: readonly unknown[],
  compiled: CompiledClass,
  rule: ValidationRule,
  path: string,
): FieldErrors | undefined {
  let found: FieldErrors | undefined;
  list.forEach((member, index) => {
    if (member === undefined) return;
    const memberPath = `${path}.${index}`;
    let failures: Failures;
    let children: FieldErrors | undefined;
    if (member instanceof Object) children = nested(member, compiled, rule, memberPath);
    else failures = failNested(undefined, rule, member);
    if (failures) (found ??= {})[memberPath] = Object.values(failures);
    if (children) found = Object.assign(found ?? {}, children);
  });
  return found;
}
