import type { FieldErrors } from '../errors';

/**
 * A Standard Schema (v1) value: what zod 4, valibot and arktype schemas are. keel reads it through
 * this interface alone, so it depends on none of them.
 *
 * @example
 * import { z } from 'zod';
 * const schema: StandardSchemaV1<unknown, { sku: string }> = z.object({ sku: z.string() });
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Present when the library states its schema as JSON Schema (the Standard JSON Schema interface). */
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** What a Standard Schema's `validate` answers: the output, or the issues. */
export type StandardResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] };

/** One issue a Standard Schema reports: a message and the path of the field it is about. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/**
 * The type a Standard Schema gives its valid input as: what a handler receives.
 *
 * @example
 * type Order = SchemaOutput<typeof orderSchema>;
 */
export type SchemaOutput<S> = S extends StandardSchemaV1<unknown, infer Output> ? Output : never;

/**
 * Whether `value` is a Standard Schema rather than a class, a pipe or a name.
 *
 * @example
 * isStandardSchema(z.string()); // true
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: { validate?: unknown } })['~standard'];
  return typeof props?.validate === 'function';
}

/** What a schema made of a value: its output, or its failures by field path. */
export type SchemaBound =
  | { readonly value: unknown; readonly fields: undefined }
  | { readonly value: undefined; readonly fields: FieldErrors };

/**
 * Validates `input` through `schema`, at once when the schema answers at once: its output, or one
 * message per field path (`items.0.quantity`), an issue about the whole value under `root`.
 *
 * @example
 * validateSchema(z.object({ n: z.number() }), { n: 'x' }, 'body'); // { fields: { n: ['Invalid input: ...'] } }
 */
export function validateSchema(
  schema: StandardSchemaV1,
  input: unknown,
  root: string,
): SchemaBound | Promise<SchemaBound> {
  const result = schema['~standard'].validate(input);
  return result instanceof Promise ? result.then((settled) => bound(settled, root)) : bound(result, root);
}

function bound(result: StandardResult<unknown>, root: string): SchemaBound {
  if (!result.issues) return { value: result.value, fields: undefined };
  const fields: FieldErrors = {};
  for (const issue of result.issues) {
    const path = (issue.path ?? []).map((segment) =>
      String(typeof segment === 'object' && segment !== null ? segment.key : segment),
    );
    const field = path.length > 0 ? path.join('.') : root;
    // The first issue of a field is the one to fix first; the rest often follow from it.
    fields[field] ??= [issue.message];
  }
  return { value: undefined, fields };
}
