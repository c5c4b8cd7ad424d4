import type { Class } from '../container/token';
import { isStandardSchema, type StandardSchemaV1 } from '../binding/standard-schema';
import { OutputErrors } from '../errors/output-errors';
import type { OutputOptions } from '../http/output-shaper';
import { MetadataKey } from '../metadata/keys';
import { SetMetadata, type ClassOrMethodDecorator } from './hooks';

/**
 * Sends the class instances a handler answers with (or every handler of the class) through
 * class-transformer's `instanceToPlain` with these options: `groups` opens the properties
 * `@Expose({ groups })` reserves for them. The method's options replace the class's.
 *
 * @example
 * @SerializeOptions({ groups: ['admin'] }) @Get(':id') show() { return this.users.find(id); }
 */
export function SerializeOptions(options: OutputOptions): ClassOrMethodDecorator {
  return SetMetadata(MetadataKey.serializeOptions, options);
}

/**
 * States what the handler answers with: a class, whose JSON Schema (without its `@Exclude()`d
 * properties) the OpenAPI document shows as the answer's; or a Standard Schema, which also parses
 * every value the handler returns: its output is sent, and a value it refuses is a 500 whose
 * reason goes to the log, never to the client.
 *
 * @example
 * @Returns(ArticleView) @Get(':id') show() {}
 * @Returns(z.object({ id: z.number(), title: z.string() })) @Get(':id') show() {}
 */
export function Returns(answer: Class | StandardSchemaV1): ClassOrMethodDecorator {
  if (typeof answer !== 'function' && !isStandardSchema(answer))
    throw OutputErrors.invalidReturns(`@Returns(${String(answer)})`);
  return SetMetadata(MetadataKey.returns, answer);
}
