import type { Class } from '../container/token';
import { isApplicationClass } from '../metadata/design-types';
import { Uncompiled, copiesKeyByKey, targetOf, transformerStorage, type Target } from './binding-copy';
import type { BoundRule, RuleValidator } from './binding-rules';
import { RuleKind, type ValidationRule, type ValidationStorage } from './class-validator-types';

/** What a compiled binding does for one property, read once from the class's metadata. */
export interface PropertyPlan {
  readonly name: string;
  /** `@IsOptional` and `@ValidateIf`: every one must hold for the rules to run. */
  readonly conditions: readonly ValidationRule[];
  /** `@IsDefined` first, then the other rules, in the order class-validator runs them. */
  readonly rules: readonly BoundRule[];
  readonly nested: { readonly rule: ValidationRule; readonly type: Class } | undefined;
  /** What `@Type` makes of the value. */
  readonly target: Target;
}

/** A class as a compiled binding sees it: its properties in class-validator's order, and the names it keeps. */
export interface ClassPlan {
  readonly properties: readonly PropertyPlan[];
  readonly declared: ReadonlySet<string>;
}

/**
 * The plan of `type`, or why it has none (then class-validator binds it): an async rule, a rule
 * kind or a class-transformer decorator this plan does not reproduce, a nested class it cannot name.
 *
 * @example
 * const plan = planClass(CreateOrder, getMetadataStorage()); // { properties: [...], declared: Set {...} }
 */
export function planClass(type: Class, storage: ValidationStorage): ClassPlan | string {
  if (!copiesKeyByKey(type)) return 'it uses @Transform, @Expose or @Exclude';
  const rules = storage.getTargetValidationMetadatas(type, '', false, false);
  // With no rule at all, class-validator reports an unknown value rather than validating.
  if (rules.length === 0) return 'it has no rules';
  const grouped: Record<string, ValidationRule[]> = {};
  for (const rule of rules) (grouped[rule.propertyName] ??= []).push(rule);
  const properties: PropertyPlan[] = [];
  for (const name of Object.keys(grouped)) {
    const planned = planProperty(type, name, grouped[name] ?? [], storage);
    if (typeof planned === 'string') return `${name}: ${planned}`;
    properties.push(planned);
  }
  return { properties, declared: new Set(Object.keys(grouped)) };
}

function planProperty(
  type: Class,
  name: string,
  rules: readonly ValidationRule[],
  storage: ValidationStorage,
): PropertyPlan | string {
  if (hasAccessor(type, name)) return 'it is an accessor';
  const defined: BoundRule[] = [];
  const custom: BoundRule[] = [];
  const conditions: ValidationRule[] = [];
  const nestedRules: ValidationRule[] = [];
  for (const rule of rules) {
    if (rule.type === RuleKind.whitelist) continue;
    if (rule.type === RuleKind.conditional) conditions.push(rule);
    else if (rule.type === RuleKind.nested) nestedRules.push(rule);
    else if (rule.type === RuleKind.custom || rule.type === RuleKind.defined) {
      const constraints = storage.getTargetValidatorConstraints(rule.constraintCls);
      const [constraint] = constraints;
      if (constraints.length !== 1 || !constraint) return 'its rule has no single validator class';
      if (constraint.async) return `its rule ${constraint.name || rule.type} is async`;
      // Resolved once: class-validator's container keeps one instance per validator class.
      const validator = constraint.instance as RuleValidator;
      (rule.type === RuleKind.defined ? defined : custom).push({ rule, constraint, validator });
    } else return `class-validator's ${rule.type} is not compiled`;
  }
  let target: Target;
  try {
    const record = transformerStorage().findTypeMetadata(type, name);
    if (record?.typeFunction && record.typeFunction.length > 0) return 'its @Type reads the object';
    target = targetOf(record);
  } catch (error) {
    if (error instanceof Uncompiled) return 'its @Type is not compiled';
    throw error;
  }
  if (nestedRules.length > 1) return 'it has more than one @ValidateNested';
  const [nestedRule] = nestedRules;
  if (
    nestedRule &&
    (!isApplicationClass(target) || target === String || target === Number || target === Boolean)
  )
    return '@ValidateNested needs @Type(() => Class)';
  return {
    name,
    conditions,
    rules: [...defined, ...custom],
    nested: nestedRule ? { rule: nestedRule, type: target as Class } : undefined,
    target,
  };
}

// class-transformer skips or trips on a property the prototype defines with get/set.
function hasAccessor(type: Class, name: string): boolean {
  for (
    let prototype: object | null = type.prototype as object;
    prototype && prototype !== Object.prototype;
  ) {
    if (Object.getOwnPropertyDescriptor(prototype, name)) return true;
    prototype = Object.getPrototypeOf(prototype) as object | null;
  }
  return false;
}
