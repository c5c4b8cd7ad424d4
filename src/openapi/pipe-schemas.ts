import type { HookEntry, PipeTransform } from '../hooks/hook-types';
import { ParseBoolPipe, ParseIntPipe, ParseUUIDPipe } from '../hooks/pipes';
import type { JsonSchema } from './json-schema';

interface PipeSchema {
  readonly schema: JsonSchema;
  /** The fallback text as the pipe makes it, for the parameter's `default`. */
  readonly convert: (text: string) => unknown;
}

// keel's pipes whose output has a known type; a parameter through one of them is documented as it.
const PIPE_SCHEMAS = new Map<unknown, PipeSchema>([
  [ParseIntPipe, { schema: { type: 'integer' }, convert: Number }],
  [ParseBoolPipe, { schema: { type: 'boolean' }, convert: (text) => text === 'true' }],
  [ParseUUIDPipe, { schema: { type: 'string', format: 'uuid' }, convert: (text) => text }],
]);

/**
 * The schema of a path or query parameter read through `pipes`: the last of them with a known
 * type decides (`ParseIntPipe`: integer); with none, a string. `fallback` becomes its default.
 *
 * @example
 * parameterSchema([ParseIntPipe], '1'); // { type: 'integer', default: 1 }
 */
export function parameterSchema(
  pipes: readonly HookEntry<PipeTransform>[] = [],
  fallback?: string,
): JsonSchema {
  const known = pipes
    .map((pipe) => PIPE_SCHEMAS.get(typeof pipe === 'function' ? pipe : (pipe as object).constructor))
    .filter((found) => found !== undefined)
    .at(-1);
  const schema = known?.schema ?? { type: 'string' };
  if (fallback === undefined) return schema;
  return { ...schema, default: known ? known.convert(fallback) : fallback };
}
