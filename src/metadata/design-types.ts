// What TypeScript emits for interfaces, unions, primitives and built-ins: never a class the
// application defined, so never something to construct or bind into.
const BUILT_IN_TYPES = new Set<unknown>([
  Object,
  String,
  Number,
  Boolean,
  Symbol,
  BigInt,
  Array,
  Function,
  Promise,
]);

/** Whether an emitted design type is a class of the application's own (not `Object`, `String`, ...). */
export function isApplicationClass(value: unknown): value is abstract new (...args: never[]) => unknown {
  return typeof value === 'function' && !BUILT_IN_TYPES.has(value);
}
