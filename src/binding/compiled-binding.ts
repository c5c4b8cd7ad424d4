import type { Class } from '../container/token';
import type { FieldErrors } from '../errors';
import { convertValue } from './binding-copy';
import { planClass, type ClassPlan, type PropertyPlan } from './binding-plan';
import { fail, failNested, nested, passes, type BoundRule, type CompiledClass } from './binding-rules';
import type { ValidationRule } from './class-validator-types';
import { isPlainEmail } from './plain-email';
import { INLINE_RULES } from './inline-rules';

/** A class's binding compiled once: the instance made from a body, and its failures (none: valid). */
export interface CompiledBinding {
  /** Throws `Uncompiled` for input it was not planned for. */
  bind(plain: object): { readonly value: object; readonly fields: FieldErrors | undefined };
}

const bindings = new WeakMap<Class, CompiledBinding | null>();

/**
 * The compiled binding of `type`, made at its first use and kept; undefined when one of its
 * classes cannot be compiled, and after {@link keepInterpreted}: class-validator binds it then.
 *
 * @example
 * const binding = compiledBinding(CreateOrder);
 * binding?.bind({ item: 'tea', quantity: 2, email: 'ada@example.com' }); // { value: CreateOrder {...}, fields: undefined }
 */
export function compiledBinding(type: Class): CompiledBinding | undefined {
  let binding = bindings.get(type);
  if (binding === undefined) bindings.set(type, (binding = compileOrNot(type) ?? null));
  return binding ?? undefined;
}

/** From now on `type` binds through class-transformer and class-validator. @example keepInterpreted(Signup) */
export function keepInterpreted(type: Class): void {
  bindings.set(type, null);
}

// Compiling is an optimisation: a class it fails on is still bound, by class-validator.
function compileOrNot(type: Class): CompiledBinding | undefined {
  try {
    return compile(type);
  } catch {
    return undefined;
  }
}

function compile(type: Class): CompiledBinding | undefined {
  /* eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred load, as bind's */
  const validator = require('class-validator') as typeof import('class-validator');
  const classes = new Map<Class, CompiledClass>();
  const plans = new Map<Class, ClassPlan>();
  const storage = validator.getMetadataStorage();
  const compileClass = (target: Class): CompiledClass | undefined => {
    const known = classes.get(target);
    if (known) return known;
    const plan = planClass(target, storage);
    if (typeof plan === 'string') return undefined;
    plans.set(target, plan);
    // Registered before its nested classes, so that a class nesting itself finds itself.
    const compiled: CompiledClass = { type: target, validate: () => undefined };
    classes.set(target, compiled);
    const nestedClasses: CompiledClass[] = [];
    for (const property of plan.properties) {
      if (!property.nested) continue;
      const inner = compileClass(property.nested.type);
      if (!inner) return undefined;
      nestedClasses.push(inner);
    }
    compiled.validate = validatorOf(plan, nestedClasses, validator);
    return compiled;
  };
  const root = compileClass(type);
  const plan = plans.get(type);
  if (!root || !plan) return undefined;
  const make = copierOf(type, plan);
  return {
    bind(plain) {
      const value = make(plain);
      return { value, fields: root.validate(value, '') };
    },
  };
}

const RUNTIME = { passes, fail, failNested, nested, convert: convertValue, isPlainEmail };

// What the generated code refers to by index: P rules, C conditions, N and NR nested classes and rules.
interface CodeParts {
  readonly rules: BoundRule[];
  readonly conditions: ValidationRule[];
  readonly nestedRules: ValidationRule[];
  readonly prelude: string[];
  readonly validator: typeof import('class-validator');
}

function validatorOf(
  plan: ClassPlan,
  nestedClasses: readonly CompiledClass[],
  validator: typeof import('class-validator'),
): CompiledClass['validate'] {
  const parts: CodeParts = { rules: [], conditions: [], nestedRules: [], prelude: [], validator };
  const body = [
    // class-validator's whitelist: what the class declares no rule for goes.
    'for (const key of Object.keys(o)) if (!D.has(key)) delete o[key];',
    'let out, c, ch, v, ok, t;',
    ...plan.properties.map((property) => propertySource(property, parts)),
    'return out;',
  ];
  const source = `${parts.prelude.join('\n')}\nreturn function validate(o, prefix) {\n${body.join('\n')}\n};`;
  const factory = new Function('R', 'P', 'C', 'N', 'NR', 'D', 'CV', source) as (
    ...args: unknown[]
  ) => CompiledClass['validate'];
  const { rules, conditions, nestedRules } = parts;
  return factory(RUNTIME, rules, conditions, nestedClasses, nestedRules, plan.declared, validator);
}

// One property, as class-validator's performValidations goes: conditions, rules, nested values;
// its messages before its children's.
function propertySource(property: PropertyPlan, parts: CodeParts): string {
  const name = JSON.stringify(property.name);
  const lines = [`v = o[${name}]; c = undefined;`];
  if (property.conditions.length > 0) lines.push('ok = true;');
  for (const condition of property.conditions) {
    // Every condition is asked, as class-validator asks them all before deciding.
    const index = parts.conditions.push(condition) - 1;
    const check =
      condition.name === 'isOptional' ? 'v !== null && v !== undefined' : `C[${index}].constraints[0](o, v)`;
    lines.push(`t = ${check}; ok = ok && t;`);
  }
  if (property.conditions.length > 0) lines.push('if (ok) {');
  for (const bound of property.rules) {
    const index = parts.rules.push(bound) - 1;
    lines.push(
      `if (!(${ruleCheck(bound, index, parts.prelude, parts.validator)})) c = R.fail(c, P[${index}], o, v);`,
    );
  }
  if (property.nested) {
    const index = parts.nestedRules.push(property.nested.rule) - 1;
    lines.push(
      'ch = undefined;',
      'if (v !== undefined) {',
      `if (v instanceof Object) ch = R.nested(v, N[${index}], NR[${index}], prefix + ${name});`,
      `else c = R.failNested(c, NR[${index}], v);`,
      '}',
    );
  }
  if (property.conditions.length > 0) lines.push('}');
  lines.push(`if (c !== undefined) (out ??= {})[prefix + ${name}] = Object.values(c);`);
  if (property.nested) lines.push('if (ch !== undefined) out = Object.assign(out ?? {}, ch);');
  return lines.join('\n');
}

function ruleCheck(
  bound: BoundRule,
  index: number,
  prelude: string[],
  validator: typeof import('class-validator'),
): string {
  const generic = `R.passes(P[${index}], o, v)`;
  const { name, target } = bound.constraint;
  // class-validator's own rules are made by ValidateBy, whose validator class is its CustomConstraint.
  const isValidateBy = (target as { name?: string }).name === 'CustomConstraint';
  const inline = isValidateBy && Object.hasOwn(INLINE_RULES, name) ? INLINE_RULES[name] : undefined;
  if (!inline || bound.rule.each || bound.rule.validateIf) return generic;
  prelude.push(
    `const k${index}_0 = P[${index}].rule.constraints?.[0], k${index}_1 = P[${index}].rule.constraints?.[1];`,
  );
  if ('expression' in inline) return inline.expression.replace(/\bk([01])\b/g, `k${index}_$1`);
  if (typeof validator[inline.call] !== 'function') return generic;
  prelude.push(`const f${index} = CV[${JSON.stringify(inline.call)}];`);
  const constraints = [`k${index}_0`, `k${index}_1`].slice(0, inline.constraints);
  return `f${index}(${['v', ...constraints].join(', ')})`;
}

// The root instance, as plainToInstance makes it: only the declared properties are copied, since
// class-validator's whitelist removes every other one straight after.
function copierOf(type: Class, plan: ClassPlan): (plain: object) => object {
  const cases = plan.properties.map(
    (property: PropertyPlan, index) =>
      `case ${JSON.stringify(property.name)}: x = ${conversion(property, index)}; break;`,
  );
  const source = `return function make(plain) {
const o = new T();
const keys = Object.keys(plain);
for (let i = 0; i < keys.length; i++) {
const key = keys[i];
let x;
switch (key) {
${cases.join('\n')}
default: continue;
}
if (x !== undefined && !(o[key] instanceof Function)) o[key] = x;
}
return o;
};`;
  const targets = plan.properties.map((property) => property.target);
  return (new Function('T', 'R', 'TG', source) as (...args: unknown[]) => (plain: object) => object)(
    type,
    RUNTIME,
    targets,
  );
}

function conversion(property: PropertyPlan, index: number): string {
  if (property.target === undefined)
    return "(x = plain[key], typeof x === 'object' && x !== null ? R.convert(x, undefined) : x)";
  return `R.convert(plain[key], TG[${index}])`;
}
