import { classOutputPlan } from './class-output-plan';

/**
 * What `@SerializeOptions()` passes to class-transformer's `instanceToPlain`: the groups a handler
 * answers for (`@Expose({ groups: ['admin'] })` properties), and its other switches.
 */
export interface OutputOptions {
  /** The groups whose `@Expose({ groups })` properties are sent. */
  readonly groups?: readonly string[];
  /** `excludeAll`: only `@Expose()`d properties are sent; default `exposeAll`. */
  readonly strategy?: 'exposeAll' | 'excludeAll';
  /** Properties whose names start with one of these are left out (`_`, `$`). */
  readonly excludePrefixes?: readonly string[];
  /** The version `@Expose({ since, until })` compares with. */
  readonly version?: number;
}

/** Turns what a route answers with into what is sent: class instances shaped, the rest as it is. */
export type OutputShaper = (value: unknown) => unknown;

type InstanceToPlain = (value: unknown, options: object) => unknown;
let instanceToPlain: InstanceToPlain | undefined;

// Loaded when the first class with output rules is sent, as binding loads class-transformer.
function transformer(): InstanceToPlain {
  /* eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred load */
  instanceToPlain ??= (require('class-transformer') as { instanceToPlain: InstanceToPlain }).instanceToPlain;
  return instanceToPlain;
}

/**
 * The shaper of a route, made once at boot with its `@SerializeOptions`: a class instance anywhere
 * in the answer (at the top, in an array, inside a plain object) goes through `instanceToPlain`
 * with its class's `@Exclude`/`@Expose`/`@Transform` and these options, so an excluded column
 * never reaches a client. Plain objects, arrays and primitives are given back as they are (the same
 * reference) when nothing in them is a class instance, so a plain answer costs one look at each
 * nested object and no copy.
 *
 * @example
 * const shape = outputShaper({ groups: ['admin'] });
 * JSON.stringify(shape({ user })); // user's @Exclude()d fields left out
 */
export function outputShaper(options: OutputOptions = {}): OutputShaper {
  const transformOptions = { ...options, groups: options.groups ? [...options.groups] : undefined };
  // Groups only open `@Expose`d properties, which a planned copy's class has none of; the other
  // options apply to every property, as class-transformer alone applies them.
  const canCopy =
    options.strategy === undefined && options.excludePrefixes === undefined && options.version === undefined;
  const shape = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return shapeList(value, shape);
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null) return shapeRecord(value, shape);
    const type = (value as { constructor?: unknown }).constructor;
    // An object whose constructor is not its own class (Object.create(proto)) is taken key by key.
    const plan = typeof type === 'function' ? classOutputPlan(type as new () => object) : NOTHING_EXCLUDED;
    if (plan.kind === 'as-is') return value;
    if (plan.kind === 'transformed' || (plan.excluded.size > 0 && !canCopy))
      return transformer()(value, transformOptions);
    if (plan.excluded.size > 0) return copyWithout(value, plan.excluded, shape);
    return shapeRecord(value, shape, true);
  };
  return shape;
}

const NOTHING_EXCLUDED = { kind: 'key-by-key', excluded: new Set<string>() } as const;

/** The shaper of routes without `@SerializeOptions`. */
export const shapeOutput: OutputShaper = outputShaper();

function shapeList(list: readonly unknown[], shape: OutputShaper): readonly unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < list.length; index += 1) {
    const item = list[index];
    if (typeof item !== 'object' || item === null) continue;
    const shaped = shape(item);
    if (shaped === item) continue;
    copy ??= list.slice();
    copy[index] = shaped;
  }
  return copy ?? list;
}

// A class instance without output rules becomes a plain object of its own enumerable properties,
// as JSON.stringify would send it, when one of them needed shaping.
function shapeRecord(record: object, shape: OutputShaper, isInstance = false): object {
  let copy: Record<string, unknown> | undefined;
  const source = record as Record<string, unknown>;
  for (const key in source) {
    if (isInstance && !Object.hasOwn(source, key)) continue;
    const value = source[key];
    if (typeof value !== 'object' || value === null) continue;
    const shaped = shape(value);
    if (shaped === value) continue;
    copy ??= { ...source };
    copy[key] = shaped;
  }
  return copy ?? record;
}

// An instance whose class only excludes properties: its own enumerable ones but those, each shaped,
// as instanceToPlain sends it.
function copyWithout(instance: object, excluded: ReadonlySet<string>, shape: OutputShaper): object {
  const copy: Record<string, unknown> = {};
  const source = instance as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (excluded.has(key)) continue;
    const value = source[key];
    copy[key] = typeof value === 'object' && value !== null ? shape(value) : value;
  }
  return copy;
}
