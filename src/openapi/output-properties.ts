import type { Class } from '../container/token';
import { transformerStorage } from '../binding/binding-copy';

// class-transformer's TransformationType.CLASS_TO_PLAIN: what an answer goes through.
const CLASS_TO_PLAIN = 1;

/** Which properties of a class an answer carries, as class-transformer's rules say. */
export interface OutputProperties {
  /** `@Expose()`d properties: sent even without a validation rule naming them. */
  readonly exposed: readonly string[];
  /** `@Transform()`ed properties: sent as their transform makes them, of a type no schema can say. */
  readonly transformed: readonly string[];
  /** Whether a property is sent: not `@Exclude()`d, and `@Expose()`d where the class excludes all. */
  readonly isSent: (property: string) => boolean;
}

/**
 * The properties instances of `type` are sent with, read from its `@Expose`/`@Exclude` metadata (and
 * its parents'): what the OpenAPI document shows of a class a route answers with.
 *
 * @example
 * outputProperties(User).isSent('passwordHash'); // false
 */
export function outputProperties(type: Class): OutputProperties {
  const storage = transformerStorage();
  const exposed = storage.getExposedProperties(type, CLASS_TO_PLAIN);
  const excluded = new Set(storage.getExcludedProperties(type, CLASS_TO_PLAIN));
  const exposedOnly = storage.getStrategy(type) === 'excludeAll';
  const lineage = [type, ...storage.getAncestors(type)];
  const transformed = lineage.flatMap((owner) => {
    const byProperty = storage._transformMetadatas.get(owner) as Map<string, unknown> | undefined;
    return [...(byProperty?.keys() ?? [])];
  });
  return {
    exposed,
    transformed,
    isSent: (property) => !excluded.has(property) && (!exposedOnly || exposed.includes(property)),
  };
}
