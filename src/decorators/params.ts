import type { Class } from '../container/token';
import { MetadataKey } from '../metadata/keys';
import { appendMetadata } from '../metadata/reflection';
import type { ParamMetadata, ParamSource } from '../routing/route-metadata';

function paramDecorator(
  source: ParamSource,
  details: Omit<ParamMetadata, 'index' | 'source'> = {},
): ParameterDecorator {
  return (prototype, property, index) => {
    if (property === undefined)
      throw new TypeError(`@${source} decorates handler parameters, not constructor ones`);
    const param: ParamMetadata = { index, source, ...details };
    appendMetadata(MetadataKey.params, param, prototype, property);
  };
}

/**
 * Injects the path parameter `name`, a string: the decorator spelling of `ctx.param(name)`.
 *
 * @example
 * @Get(':id') show(@Param('id') id: string) {}
 */
export function Param(name: string): ParameterDecorator {
  return paramDecorator('param', { name });
}

/**
 * Injects the query value `name`, or `fallback` when it is absent: `ctx.query(name, fallback)`.
 *
 * @example
 * @Get() index(@Query('page', '1') page: string) {}
 */
export function Query(name: string, fallback?: string): ParameterDecorator {
  return paramDecorator('query', { name, fallback });
}

/**
 * Injects the posted form field `name`, or `fallback`: `ctx.form(name, fallback)`.
 *
 * @example
 * @Post() store(@Form('email') email: string) {}
 */
export function Form(name: string, fallback?: string): ParameterDecorator {
  return paramDecorator('form', { name, fallback });
}

/**
 * Injects the request body bound into the parameter's class (or `type`) and validated; an invalid
 * body is answered with 422 before the handler runs.
 *
 * @example
 * @Post() store(@Body() input: CreateOrder) {}
 */
export function Body(type?: Class): ParameterDecorator {
  return paramDecorator('body', { type });
}

/**
 * Injects the request {@link Context} itself.
 *
 * @example
 * @Get() index(@Query('page', '1') page: string, @Ctx() ctx: Context) {}
 */
export function Ctx(): ParameterDecorator {
  return paramDecorator('ctx');
}
