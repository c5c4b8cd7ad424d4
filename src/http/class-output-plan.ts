import type { Class } from '../container/token';
import { copiesKeyByKey } from '../binding/binding-copy';

/**
 * How keel sends an instance of one class, decided once per class: as it is (it writes its own
 * JSON, or is bytes or a stream), key by key like a plain object (its class has no output rules),
 * or through class-transformer's `instanceToPlain` (it has `@Exclude`, `@Expose` or `@Transform`).
 */
export type ClassOutputPlan = 'as-is' | 'key-by-key' | 'transformed';

const plans = new WeakMap<object, ClassOutputPlan>();

/**
 * The plan of `type`, made the first time it is asked for (at boot for the classes routes name in
 * `@Returns`) and kept. @example classOutputPlan(Article) // 'transformed'
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
  if (prototype === undefined) return 'as-is';
  // Dates, Buffers and the application's own value types say what their JSON is.
  if (typeof prototype.toJSON === 'function') return 'as-is';
  // Bytes and streams are answers of their own, never records.
  if (ArrayBuffer.isView(prototype) || prototype instanceof ArrayBuffer) return 'as-is';
  if (typeof prototype.pipe === 'function' || typeof prototype.getReader === 'function') return 'as-is';
  if (typeof prototype.then === 'function') return 'as-is';
  return copiesKeyByKey(type) ? 'key-by-key' : 'transformed';
}
