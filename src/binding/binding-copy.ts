import type { Class } from '../container/token';

/**
 * Thrown where a compiled binding meets what it was not planned for (a `Set`, a `Date`, a rule
 * that answers with a promise): the request is bound again through class-transformer and
 * class-validator, and with `isPermanent` the class keeps to them from then on.
 */
export class Uncompiled extends Error {
  constructor(readonly isPermanent: boolean) {
    super('the compiled binding cannot take this input');
  }
}

interface TypeRecord {
  readonly typeFunction?: (options?: object) => unknown;
  readonly reflectedType?: unknown;
  readonly options?: { readonly discriminator?: unknown };
}

interface TransformerStorage {
  findTypeMetadata(target: Class, property: string): TypeRecord | undefined;
  getAncestors(target: Class): Class[];
  getStrategy(target: Class): 'excludeAll' | 'exposeAll' | 'none';
  /** The properties exposed, or excluded, for a transformation (1: class to plain). */
  getExposedProperties(target: Class, transformationType: number): string[];
  getExcludedProperties(target: Class, transformationType: number): string[];
  readonly _transformMetadatas: Map<unknown, unknown>;
  readonly _exposeMetadatas: Map<unknown, unknown>;
  readonly _excludeMetadatas: Map<unknown, unknown>;
}

let storage: TransformerStorage | undefined;

/** class-transformer's metadata store, where `@Type`, `@Transform`, `@Expose` and `@Exclude` write. */
export function transformerStorage(): TransformerStorage {
  /* eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred load, as bind's */
  storage ??= (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage })
    .defaultMetadataStorage;
  return storage;
}

const copiesPlainly = new WeakMap<Class, boolean>();

/**
 * Whether class-transformer copies into `type` key by key with nothing but `@Type` to heed: no
 * `@Transform`, `@Expose` or `@Exclude` on it or a class it extends. @example copiesKeyByKey(Address)
 */
export function copiesKeyByKey(type: Class): boolean {
  let known = copiesPlainly.get(type);
  if (known === undefined) {
    const store = transformerStorage();
    const lineage = [type, ...store.getAncestors(type)];
    known = !lineage.some(
      (target) =>
        store._transformMetadatas.has(target) ||
        store._exposeMetadatas.has(target) ||
        store._excludeMetadatas.has(target),
    );
    copiesPlainly.set(type, known);
  }
  return known;
}

/** What a value becomes under `@Type`: a primitive's constructor, a class, or nothing declared. */
export type Target = StringConstructor | NumberConstructor | BooleanConstructor | Class | undefined;

const PRIMITIVES = new Set<unknown>([String, Number, Boolean]);

/**
 * The target `@Type` names for a property, as class-transformer reads it; throws {@link Uncompiled}
 * for what this copy does not do (discriminators, dates, buffers, maps and sets).
 */
export function targetOf(record: TypeRecord | undefined, options?: object): Target {
  if (record === undefined) return undefined;
  if (record.options?.discriminator) throw new Uncompiled(true);
  const reflected = record.reflectedType;
  if (reflected === Map || reflected === Set) throw new Uncompiled(true);
  if (typeof reflected === 'function' && reflected !== Array && 'push' in (reflected.prototype as object))
    throw new Uncompiled(true);
  const target = record.typeFunction ? record.typeFunction(options) : reflected;
  if (target === undefined || PRIMITIVES.has(target)) return target as Target;
  if (typeof target !== 'function' || target === Date || target === Buffer || target === Array)
    throw new Uncompiled(true);
  return target as Class;
}

/**
 * `value` as class-transformer's `plainToInstance` makes it for `target`: arrays element by element,
 * primitives converted to a `@Type` primitive, objects copied key by key into a new `target` (or a
 * plain object) without `__proto__`, `constructor` or the names of the target's methods.
 */
export function convertValue(value: unknown, target: Target): unknown {
  if (Array.isArray(value)) return value.map((entry: unknown) => convertValue(entry, target));
  if (target === String || target === Number || target === Boolean)
    return value === null || value === undefined ? value : (target as (value: unknown) => unknown)(value);
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Set || value instanceof Map || value instanceof Date || Buffer.isBuffer(value))
    throw new Uncompiled(false);
  if (typeof (value as { then?: unknown }).then === 'function') throw new Uncompiled(false);
  if (target === undefined) {
    const made = (value as object).constructor;
    if (made !== Object && made !== undefined) throw new Uncompiled(false);
  }
  return copyObject(value as Record<string, unknown>, target);
}

function copyObject(value: Record<string, unknown>, target: Class | undefined): object {
  if (target !== undefined && !copiesKeyByKey(target)) throw new Uncompiled(true);
  const copy = (target ? new (target as new () => object)() : {}) as Record<string, unknown>;
  const prototype = (copy.constructor as { prototype?: object } | undefined)?.prototype;
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const descriptor = prototype && Object.getOwnPropertyDescriptor(prototype, key);
    if ((descriptor && !descriptor.set) || copy[key] instanceof Function) continue;
    const record = target && transformerStorage().findTypeMetadata(target, key);
    const entry = convertValue(
      value[key],
      targetOf(record, { newObject: copy, object: value, property: key }),
    );
    if (entry !== undefined) copy[key] = entry;
  }
  return copy;
}
