import type { Class } from '../container/token';
import type { HookEntry, PipeTransform } from '../hooks/hook-types';
import type { Context } from '../http/context';
import type { CookieReadOptions } from '../http/cookies';
import { MetadataKey } from '../metadata/keys';
import { appendMetadata } from '../metadata/reflection';
import { isStandardSchema, type StandardSchemaV1 } from '../binding/standard-schema';
import type { ParamMetadata, ParamSource } from '../routing/route-metadata';

/** A pipe as a parameter decorator names it: a class built through DI, or an instance. */
export type PipeEntry = HookEntry<PipeTransform>;

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

// `@Query('page', '1', ParseIntPipe)`: a string after the name is the fallback, the rest are pipes.
function fallbackAndPipes(
  first: string | PipeEntry | undefined,
  pipes: readonly PipeEntry[],
): { fallback?: string; pipes: PipeEntry[] } {
  if (first === undefined || typeof first === 'string') return { fallback: first, pipes: [...pipes] };
  return { pipes: [first, ...pipes] };
}

/**
 * Injects the path parameter `name`, a string, or what its pipes make of it (`ParseIntPipe`: a
 * number, or 400 before the handler runs): the decorator spelling of `ctx.param(name)`. A Standard
 * Schema first validates it (422 with `fields` naming the parameter) and gives its output.
 *
 * @example
 * @Get(':id') show(@Param('id', ParseIntPipe) id: number) {}
 * @Get(':id') find(@Param('id', z.coerce.number().int()) id: number) {}
 */
export function Param(name: string, ...pipes: (PipeEntry | StandardSchemaV1)[]): ParameterDecorator {
  const [first, ...rest] = pipes;
  if (isStandardSchema(first))
    return paramDecorator('param', { name, schema: first, pipes: rest as PipeEntry[] });
  return paramDecorator('param', { name, pipes: pipes as PipeEntry[] });
}

/**
 * Injects the query value `name`, or `fallback` when it is absent (`ctx.query(name, fallback)`),
 * through its pipes. With no name, the whole query string bound into the parameter's class (or
 * through the Standard Schema given) and validated: 422 with `fields` before the handler runs when
 * it is invalid.
 *
 * @example
 * @Get() index(@Query('page', '1', ParseIntPipe) page: number) {}
 * @Get() search(@Query() filter: OrderFilter) {}
 * @Get() list(@Query(z.object({ page: z.coerce.number().default(1) })) query: { page: number }) {}
 */
export function Query(
  name?: string | StandardSchemaV1,
  fallbackOrPipe?: string | PipeEntry,
  ...pipes: PipeEntry[]
): ParameterDecorator {
  if (isStandardSchema(name)) return paramDecorator('query', { schema: name });
  return paramDecorator('query', { name, ...fallbackAndPipes(fallbackOrPipe, pipes) });
}

/**
 * Injects the posted form field `name`, or `fallback`, through its pipes: `ctx.form(name, fallback)`.
 *
 * @example
 * @Post() store(@Form('email') email: string) {}
 */
export function Form(
  name: string,
  fallbackOrPipe?: string | PipeEntry,
  ...pipes: PipeEntry[]
): ParameterDecorator {
  return paramDecorator('form', { name, ...fallbackAndPipes(fallbackOrPipe, pipes) });
}

/**
 * Injects the request body bound into the parameter's class (or `type`), or the output of the
 * Standard Schema given, validated; an invalid body is answered with 422 before the handler runs.
 *
 * @example
 * @Post() store(@Body() input: CreateOrder) {}
 * @Post() place(@Body(orderSchema) input: z.output<typeof orderSchema>) {}
 */
export function Body(type?: Class | StandardSchemaV1): ParameterDecorator {
  return paramDecorator('body', isStandardSchema(type) ? { schema: type } : { type });
}

/**
 * Injects the request header `name` (any case), a string, or `fallback` when the request has none,
 * through its pipes: `ctx.requestHeader(name, fallback)`. With no name, every header, by lower-case
 * name, as Node gives them.
 *
 * @example
 * @Get() index(@Headers('x-tenant', 'public') tenant: string) {}
 * @Get() echo(@Headers() headers: IncomingHttpHeaders) {}
 */
export function Headers(
  name?: string,
  fallbackOrPipe?: string | PipeEntry,
  ...pipes: PipeEntry[]
): ParameterDecorator {
  return paramDecorator('headers', { name, ...fallbackAndPipes(fallbackOrPipe, pipes) });
}

/**
 * Injects the request's cookie `name`, or undefined, through its pipes: `ctx.cookie(name, options)`;
 * `{ signed: true }` verifies it, and a tampered one is undefined. With no name, every cookie by name.
 *
 * @example
 * @Get() index(@Cookies('theme') theme: string | undefined) {}
 * @Get('cart') cart(@Cookies('cart', { signed: true }) cart: string | undefined) {}
 */
export function Cookies(
  name?: string,
  options: CookieReadOptions = {},
  ...pipes: PipeEntry[]
): ParameterDecorator {
  return paramDecorator('cookies', { name, signed: options.signed === true, pipes });
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

/**
 * Makes a parameter decorator of your own: `read(ctx, data)` gives the value (sync or async),
 * `data` being what the decorator is called with; pipes may follow.
 *
 * @example
 * export const CurrentUser = createParamDecorator((ctx) => ctx.req.user);
 * @Get('me') me(@CurrentUser() user: User) { return user; }
 */
export function createParamDecorator<Data = undefined, Value = unknown>(
  read: (ctx: Context, data: Data) => Value | Promise<Value>,
): (data?: Data, ...pipes: PipeEntry[]) => ParameterDecorator {
  return (data, ...pipes) =>
    paramDecorator('custom', { read: read as (ctx: Context, data: unknown) => unknown, data, pipes });
}
