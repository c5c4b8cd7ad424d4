import type { Class } from '../container/token';
import { getPropertyType } from '../metadata/reflection';

type Converter = (value: string) => unknown;

// Decimal notation only, as JSON and path ids are read: `0x10`, `1e3` or `Infinity` stay text, which
// the number rules then refuse.
const DECIMAL = /^-?\d+(\.\d+)?$/;
const TRUE_WORDS = new Set(['true', 'on', '1', 'yes']);
const FALSE_WORDS = new Set(['false', 'off', '0', 'no', '']);

// Forms send every value as a string: turn them into the property's declared type, the way a
// browser user means them ("false" is false, an empty number field is no number at all).
const CONVERTERS = new Map<unknown, Converter>([
  [Number, (value) => toNumber(value.trim(), value)],
  [Boolean, (value) => (TRUE_WORDS.has(value) ? true : FALSE_WORDS.has(value) ? false : value)],
]);

// Read once per class and field name, not per request. Field names come from the client: past a
// bound, names not seen yet are looked up without being kept, so the cache cannot grow without end.
const MAX_CACHED_NAMES = 256;
const convertersByClass = new WeakMap<Class, Map<string, Converter | undefined>>();

/** The form's fields with each string converted to its property's declared number or boolean type. */
export function convertFormFields(type: Class, fields: object): Record<string, unknown> {
  const converted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const convert = converterFor(type, name);
    converted[name] = convert ? convertValue(value, convert) : value;
  }
  return converted;
}

function toNumber(text: string, value: string): unknown {
  if (text === '') return undefined;
  return DECIMAL.test(text) ? Number(text) : value;
}

function convertValue(value: unknown, convert: Converter): unknown {
  if (typeof value === 'string') return convert(value);
  return Array.isArray(value) ? value.map((entry: unknown) => convertValue(entry, convert)) : value;
}

function converterFor(type: Class, name: string): Converter | undefined {
  let converters = convertersByClass.get(type);
  if (!converters) convertersByClass.set(type, (converters = new Map()));
  if (converters.has(name)) return converters.get(name);
  const converter = CONVERTERS.get(getPropertyType(type.prototype as object, name));
  if (converters.size < MAX_CACHED_NAMES) converters.set(name, converter);
  return converter;
}
