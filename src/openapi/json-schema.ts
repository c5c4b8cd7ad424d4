/**
 * A JSON Schema (2020-12, the dialect of OpenAPI 3.1), as plain data.
 *
 * @example
 * const quantity: JsonSchema = { type: 'integer', minimum: 1 };
 */
export type JsonSchema = { readonly [keyword: string]: unknown };
