import type { Class } from '../container/token';
import { copiesKeyByKey, transformerStorage } from '../binding/binding-copy';

/**
 * How keel sends an instance of one class, decided once per class: as it is (it writes its own
 * JSON, or is bytes or a stream); key by key like a plain object, leaving out the properties
 * `@Exclude()` names (its class has no other output rule), which is what `instanceToPlain` would
 * send, without its cost; or through class-transformer's `instanceToPlain` (`@Expose`,
 * `@Transform`, a class-wide `@Exclude()`).
 */
export type ClassOutputPlan =
  | { readonly kind: 'as-is' }
  | { readonly kind: 'key-by-key'; readonly excluded: ReadonlySet<string> }
  | { readonly kind: 'transformed' };

const AS_IS: ClassOutputPlan = { kind: 'as-is' };
const TRANSFORMED: ClassOutputPlan = { kind: 'transformed' };
const PLAIN: ClassOutputPlan = { kind: 'key-by-key', excluded: new Set() };
// class-transformer's TransformationType.CLASS_TO_PLAIN: what an answer goes through.
const CLASS_TO_PLAIN = 1;

const plans = new WeakMap<object, ClassOutputPlan>();

// The prototypes of typed arrays (Uint8Array's parent), DataView and ArrayBuffer: bytes, by class.
const BYTES: readonly object[] = [
  Object.getPrototypeOf(Uint8Array.prototype) as object,
  DataView.prototype,
  ArrayBuffer.prototype,
];

/**
 * The plan of `type`, made the first time it is asked for (at boot for the classes routes name in
 * `@Returns`) and kept. @example classOutputPlan(Article) // { kind: 'transformed' }
 */
export function classOutputPlan(type: Class): ClassOutputPlan {
  let plan = plans.get(type);
  if (plan === undefined) {
    plan = planOf(type);
    plans.set(type, plan);
  }
  return plan;
}

function planOf(type: Class): ClassOutputPlan {
  const prototype = type.prototype as Record<string, unknown> | undefined;
  if (prototype === undefined) return AS_IS;
  // Dates, Buffers and the application's own value types say what their JSON is.
  if (typeof prototype.toJSON === 'function') return AS_IS;
  // Bytes and streams are answers of their own, never records.
  if (BYTES.some((bytes) => bytes === prototype || Object.prototype.isPrototypeOf.call(bytes, prototype)))
    return AS_IS;
  if (typeof prototype.pipe === 'function' || typeof prototype.getReader === 'function') return AS_IS;
  if (typeof prototype.then === 'function') return AS_IS;
  if (copiesKeyByKey(type)) return PLAIN;
  return excludesOnly(type) ? { kind: 'key-by-key', excluded: excludedOf(type) } : TRANSFORMED;
}

// `@Exclude()` on properties, and no other output rule on the class or a class it extends.
function excludesOnly(type: Class): boolean {
  const store = transformerStorage();
  const lineage = [type, ...store.getAncestors(type)];
  const hasOtherRules = lineage.some(
    (target) => store._transformMetadatas.has(target) || store._exposeMetadatas.has(target),
  );
  return !hasOtherRules && store.getStrategy(type) === 'none';
}

function excludedOf(type: Class): ReadonlySet<string> {
  return new Set(transformerStorage().getExcludedProperties(type, CLASS_TO_PLAIN));
}
