/**
 * How compiled code checks class-validator's own rules (by the name it records for them), each
 * exactly as its decorator does: a JavaScript expression of the value `v` and the rule's
 * constraints `k0`, `k1` (which may use keel's helpers `R` and class-validator's functions `CV`),
 * or the class-validator function the decorator calls with them. A rule
 * missing here runs through its validator class (`validate(value, args)`), as class-validator runs it.
 *
 * @example
 * INLINE_RULES.min; // { expression: "typeof v === 'number' && typeof k0 === 'number' && v >= k0" }
 */
export const INLINE_RULES: Readonly<Record<string, InlineRule>> = {
  isString: { expression: "typeof v === 'string' || v instanceof String" },
  isInt: { expression: "typeof v === 'number' && Number.isInteger(v)" },
  isBoolean: { expression: "typeof v === 'boolean' || v instanceof Boolean" },
  isDefined: { expression: 'v !== undefined && v !== null' },
  min: { expression: "typeof v === 'number' && typeof k0 === 'number' && v >= k0" },
  max: { expression: "typeof v === 'number' && typeof k0 === 'number' && v <= k0" },
  isNumber: { call: 'isNumber', constraints: 1 },
  // With its default options, an ordinary address is told by one regular expression; any other
  // string or option goes to class-validator's isEmail.
  isEmail: {
    expression: "(k0 === undefined && typeof v === 'string' && R.isPlainEmail(v)) || CV.isEmail(v, k0)",
  },
  isLength: { call: 'length', constraints: 2 },
  minLength: { call: 'minLength', constraints: 1 },
  maxLength: { call: 'maxLength', constraints: 1 },
  matches: { call: 'matches', constraints: 2 },
  isIn: { call: 'isIn', constraints: 1 },
  isEnum: { call: 'isEnum', constraints: 1 },
  isDateString: { call: 'isDateString', constraints: 1 },
  isUuid: { call: 'isUUID', constraints: 1 },
  isUrl: { call: 'isURL', constraints: 1 },
  equals: { call: 'equals', constraints: 1 },
  isArray: { call: 'isArray', constraints: 0 },
  isObject: { call: 'isObject', constraints: 0 },
  isNotEmpty: { call: 'isNotEmpty', constraints: 0 },
  isEmpty: { call: 'isEmpty', constraints: 0 },
  isPositive: { call: 'isPositive', constraints: 0 },
  isDate: { call: 'isDate', constraints: 0 },
  arrayMinSize: { call: 'arrayMinSize', constraints: 1 },
  arrayMaxSize: { call: 'arrayMaxSize', constraints: 1 },
  arrayNotEmpty: { call: 'arrayNotEmpty', constraints: 0 },
};

/** A check written into the compiled code, or the class-validator function it calls. */
export type InlineRule =
  | { readonly expression: string }
  | { readonly call: keyof typeof import('class-validator'); readonly constraints: 0 | 1 | 2 };
