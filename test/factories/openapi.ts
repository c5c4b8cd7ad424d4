import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { execFile } from 'node:child_process';
import type { JsonSchema, OpenApiDocument } from 'keel';
import { REPO_ROOT } from './cli';

/** What the standard validator says of a document. */
export interface OpenApiVerdict {
  readonly valid: boolean;
  readonly errors: unknown;
}

// @seriousme/openapi-schema-validator is ESM only, which Jest on Node 20 cannot load: it runs in a
// node of its own, reading the document on stdin.
const VALIDATE = `
import { Validator } from '@seriousme/openapi-schema-validator';
let text = '';
for await (const chunk of process.stdin) text += chunk;
const { valid, errors } = await new Validator().validate(JSON.parse(text));
process.stdout.write(JSON.stringify({ valid, errors: errors ?? null }));
`;

/** How long a test that runs the validator may take: the validator's own node compiles its schemas first. */
export const VALIDATOR_TIMEOUT_MS = 30_000;

/** Validates `document` against the OpenAPI 3.1 schema with @seriousme/openapi-schema-validator. */
export function validateOpenApi(document: unknown): Promise<OpenApiVerdict> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '-e', VALIDATE],
      { cwd: REPO_ROOT, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the validator failed: ${stderr || error.message}`));
        else resolve(JSON.parse(stdout) as OpenApiVerdict);
      },
    );
    child.stdin?.end(JSON.stringify(document));
  });
}

/**
 * An ajv validator (JSON Schema 2020-12, formats on) for `schema`, whose `#/components/...`
 * references resolve in `document`.
 */
export function schemaValidator(document: OpenApiDocument): (schema: JsonSchema) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: document.components });
      compiled.set(key, validate);
    }
    return validate;
  };
}

/** A value `schema` accepts, preferring the declared default, const or first enum value. */
export function exampleOf(schema: JsonSchema, document: OpenApiDocument): unknown {
  const s = resolved(schema, document);
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0] as unknown;
  switch (s.type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, exampleOf(property, document)]),
      );
    }
    case 'array':
      return Array.from({ length: Number(s.minItems ?? 1) }, () =>
        exampleOf((s.items ?? {}) as JsonSchema, document),
      );
    case 'integer':
    case 'number':
      return Math.min(
        Number(s.minimum ?? Number(s.exclusiveMinimum ?? 0) + 1),
        Number(s.maximum ?? Infinity),
      );
    case 'boolean':
      return true;
    default:
      return stringExample(s);
  }
}

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  email: 'ada@example.com',
  uri: 'https://example.com/',
  uuid: '2f1c6a52-3d1e-4c5b-9a8e-6b1f0c3d2e4a',
  'date-time': '2026-11-25T12:00:00.000Z',
};

function stringExample(s: JsonSchema): string {
  if (typeof s.format === 'string' && FORMAT_EXAMPLES[s.format]) return FORMAT_EXAMPLES[s.format];
  const length = Math.max(Number(s.minLength ?? 1), 1);
  return 'a'.repeat(Math.min(length, Number(s.maxLength ?? length)));
}

function resolved(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  if (typeof schema.$ref !== 'string') return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = document.components.schemas[name];
  if (!target) throw new Error(`the document has no schema ${name}`);
  return resolved(target, document);
}
