import type { StandardSchemaV1 } from '../binding/standard-schema';
import type { JsonSchema } from './json-schema';

/**
 * The JSON Schemas of the Standard Schemas a document names, each from the library's own export
 * (the Standard JSON Schema `jsonSchema.input`: zod 4's schemas have it, valibot's through
 * `toStandardJsonSchema`); a schema that cannot say is `{}`, and where it is used is remembered.
 *
 * @example
 * const docs = new SchemaDocuments();
 * docs.of(z.object({ sku: z.string() }), 'POST /orders body'); // { type: 'object', properties: {...} }
 * docs.gaps(); // []
 */
export class SchemaDocuments {
  readonly #gaps: string[] = [];

  /** The JSON Schema of what `schema` accepts, or `{}` (noted under `where`) when its library gives none. */
  of(schema: StandardSchemaV1, where: string): JsonSchema {
    const convert = schema['~standard'].jsonSchema?.input;
    try {
      if (convert) {
        // The document states its own dialect; a `$schema` inside an operation would be noise.
        const stated = { ...convert({ target: 'draft-2020-12' }) };
        delete stated.$schema;
        return stated;
      }
    } catch {
      // A library that cannot state a part of the schema (a transform, a custom check) throws.
    }
    this.#gaps.push(`${where}: a ${schema['~standard'].vendor} schema without a JSON Schema`);
    return {};
  }

  /** Where a schema was documented as `{}`, in the order met. */
  gaps(): readonly string[] {
    return [...this.#gaps];
  }
}

const DOCUMENT_GAPS = new WeakMap<object, readonly string[]>();

/**
 * The places of `document` whose Standard Schema could not state itself, documented as `{}`: what
 * `framework openapi --check` lists.
 *
 * @example
 * undocumentedSchemas(app.openapi()); // ['POST /orders body: a valibot schema without a JSON Schema']
 */
export function undocumentedSchemas(document: object): readonly string[] {
  return DOCUMENT_GAPS.get(document) ?? [];
}

/** Remembers the gaps of a document built. @example rememberGaps(document, docs.gaps()) */
export function rememberGaps(document: object, gaps: readonly string[]): void {
  DOCUMENT_GAPS.set(document, gaps);
}
