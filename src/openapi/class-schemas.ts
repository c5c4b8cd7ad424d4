import type { Class } from '../container/token';
import { copiesKeyByKey, transformerStorage } from '../binding/binding-copy';
import { outputProperties } from './output-properties';
import {
  RuleKind,
  type ValidationRule as ValidationMetadata,
  type ValidationStorage,
} from '../binding/class-validator-types';
import { isApplicationClass } from '../metadata/design-types';
import { getPropertyType } from '../metadata/reflection';
import { documentedSchemas } from './documented-rule';
import type { JsonSchema } from './json-schema';
import { VALIDATION_RULES } from './validation-rules';

/**
 * The JSON Schemas of validation classes, for a document's `components.schemas`: each class once,
 * under its name (made unique), read from class-validator's rules, the schemas the application's
 * own rules state (`documentedRule`) and the declared property types.
 *
 * @example
 * const schemas = new ClassSchemas();
 * schemas.ref(CreateOrder); // { $ref: '#/components/schemas/CreateOrder' }
 * schemas.all(); // { CreateOrder: { type: 'object', properties: {...}, required: [...] } }
 */
export class ClassSchemas {
  readonly #names = new Map<Class, string>();
  readonly #outputNames = new Map<Class, string>();
  readonly #schemas: Record<string, JsonSchema> = {};

  /** A reference to the schema of `type`, which is added (with the classes it nests) on first use. */
  ref(type: Class): JsonSchema {
    return { $ref: `#/components/schemas/${this.#nameOf(type)}` };
  }

  /**
   * A reference to the schema of `type` as an answer carries it: without its `@Exclude()`d
   * properties, with its `@Expose()`d ones; the same as {@link ref} for a class without such rules.
   */
  outputRef(type: Class): JsonSchema {
    if (copiesKeyByKey(type)) return this.ref(type);
    let name = this.#outputNames.get(type);
    if (name === undefined) {
      name = this.#freeName(type);
      this.#outputNames.set(type, name);
      this.#schemas[name] = {};
      this.#schemas[name] = this.#answerSchema(type);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The object schema of `type` itself (its properties and which are required), added as by {@link ref}. */
  objectOf(type: Class): { properties: Record<string, JsonSchema>; required: readonly string[] } {
    const schema = this.#schemas[this.#nameOf(type)] as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    return { properties: schema.properties ?? {}, required: schema.required ?? [] };
  }

  /** Every schema added so far, by name. */
  all(): Record<string, JsonSchema> {
    return { ...this.#schemas };
  }

  #nameOf(type: Class): string {
    const known = this.#names.get(type);
    if (known !== undefined) return known;
    const name = this.#freeName(type);
    // Named before it is built, so that a class nesting itself refers to its own name.
    this.#names.set(type, name);
    this.#schemas[name] = {};
    this.#schemas[name] = this.#objectSchema(type);
    return name;
  }

  #freeName(type: Class): string {
    const base = type.name || 'Anonymous';
    let name = base;
    for (let n = 2; name in this.#schemas; n++) name = `${base}${n}`;
    return name;
  }

  #answerSchema(type: Class): JsonSchema {
    const { exposed, transformed, isSent } = outputProperties(type);
    const { properties, required } = this.#objectSchema(type) as {
      properties: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const property of exposed)
      properties[property] ??= declaredSchema(getPropertyType(type.prototype as object, property));
    for (const property of transformed) properties[property] = {};
    const sent = Object.fromEntries(Object.entries(properties).filter(([property]) => isSent(property)));
    const stillRequired = (required ?? []).filter(isSent);
    return {
      type: 'object',
      properties: sent,
      ...(stillRequired.length > 0 ? { required: stillRequired } : {}),
    };
  }

  #objectSchema(type: Class): JsonSchema {
    const byProperty = new Map<string, ValidationMetadata[]>();
    for (const rule of loadStorage().getTargetValidationMetadatas(type, '', true, false)) {
      byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [property, rules] of byProperty) {
      properties[property] = this.#propertySchema(type, property, rules);
      if (!rules.some((rule) => rule.type === RuleKind.conditional)) required.push(property);
    }
    return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  }

  #propertySchema(type: Class, property: string, rules: readonly ValidationMetadata[]): JsonSchema {
    const declared = getPropertyType(type.prototype as object, property);
    const isList = declared === Array || rules.some((rule) => rule.each || rule.name === 'isArray');
    let own: JsonSchema = isList ? { type: 'array' } : declaredSchema(declared);
    let items: JsonSchema = {};
    for (const rule of rules) {
      const fragment =
        rule.type === RuleKind.nested ? this.#nestedSchema(type, property, declared) : ruleSchema(rule);
      if (isList && (rule.each || rule.type === RuleKind.nested)) items = { ...items, ...fragment };
      else own = { ...own, ...fragment };
    }
    // The application's own rules say what they enforce through documentedRule; it applies as written.
    for (const stated of documentedSchemas(type.prototype as object, property)) own = { ...own, ...stated };
    return isList && Object.keys(items).length > 0 ? { ...own, items } : own;
  }

  #nestedSchema(type: Class, property: string, declared: unknown): JsonSchema {
    const nested = transformedType(type, property) ?? declared;
    return isApplicationClass(nested) ? this.ref(nested as Class) : { type: 'object' };
  }
}

function ruleSchema(rule: ValidationMetadata): JsonSchema {
  const schema = rule.name === undefined ? undefined : VALIDATION_RULES[rule.name];
  return schema ? schema(rule.constraints ?? []) : {};
}

const DECLARED_TYPES = new Map<unknown, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [Date, { type: 'string', format: 'date-time' }],
]);

function declaredSchema(declared: unknown): JsonSchema {
  return DECLARED_TYPES.get(declared) ?? {};
}

function loadStorage(): ValidationStorage {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred load: only a document needs it
  return (require('class-validator') as typeof import('class-validator')).getMetadataStorage();
}

// `@Type(() => Line)` is the only record of an array's element class: TypeScript emits `Array`.
function transformedType(type: Class, property: string): unknown {
  return transformerStorage().findTypeMetadata(type, property)?.typeFunction?.();
}
