import type { Class } from '../container/token';
import { Errors } from '../errors';
import type { Context } from '../http/context';
import { isApplicationClass } from '../metadata/design-types';
import { MetadataKey } from '../metadata/keys';
import { getMethodParamTypes, getOwnMetadata } from '../metadata/reflection';
import { pathParameters } from './path';
import type { RouteHandler } from './route';
import type { ParamMetadata } from './route-metadata';

type ArgumentReader = (ctx: Context) => unknown;

/**
 * Prepares the handler for one controller method routed at `path`, reading its parameter
 * decorators once: a method without them receives the context; with them, each parameter receives
 * its read (undecorated ones the context). Returns undefined when the method does not exist; an
 * `@Param` the path does not declare is a boot error.
 */
export function createMethodHandler(
  instance: object,
  property: string | symbol,
  path: string,
): RouteHandler | undefined {
  const method: unknown = (instance as Record<string | symbol, unknown>)[property];
  if (typeof method !== 'function') return undefined;
  const prototype = prototypeDeclaring(instance, property);
  const params = getOwnMetadata<readonly ParamMetadata[]>(MetadataKey.params, prototype, property) ?? [];
  if (params.length === 0) return (ctx) => method.call(instance, ctx) as unknown;

  const source = `${instance.constructor.name}.${String(property)}`;
  const declared = pathParameters(path);
  for (const param of params) {
    if (param.source === 'param' && !declared.has(param.name ?? '')) {
      throw Errors.unknownParam(`${source} (${path})`, param.name ?? '');
    }
  }
  const types = getMethodParamTypes(prototype, property);
  const count = Math.max(method.length, ...params.map((param) => param.index + 1));
  const readers: ArgumentReader[] = Array.from({ length: count }, () => (ctx) => ctx);
  for (const param of params) readers[param.index] = argumentReader(param, types[param.index], source);
  const isAsync = params.some((param) => param.source === 'body');

  if (!isAsync)
    return (ctx) =>
      method.apply(
        instance,
        readers.map((read) => read(ctx)),
      ) as unknown;
  return async (ctx) => {
    const args: unknown[] = [];
    for (const read of readers) args.push(await read(ctx));
    return method.apply(instance, args) as unknown;
  };
}

/** The prototype that declares `property`: an inherited action keeps its declaring class's parameter decorators. */
export function prototypeDeclaring(instance: object, property: string | symbol): object {
  let prototype = Object.getPrototypeOf(instance) as object | null;
  while (prototype && !Object.hasOwn(prototype, property))
    prototype = Object.getPrototypeOf(prototype) as object | null;
  return prototype ?? (Object.getPrototypeOf(instance) as object);
}

function argumentReader(param: ParamMetadata, declaredType: unknown, source: string): ArgumentReader {
  const { name = '', fallback } = param;
  switch (param.source) {
    case 'param':
      return (ctx) => ctx.param(name);
    case 'query':
      return (ctx) => (fallback === undefined ? ctx.query(name) : ctx.query(name, fallback));
    case 'form':
      return (ctx) => (fallback === undefined ? ctx.form(name) : ctx.form(name, fallback));
    case 'ctx':
      return (ctx) => ctx;
    case 'body':
      return bodyReader(param.type ?? declaredType, source, param.index);
  }
}

function bodyReader(type: unknown, source: string, index: number): ArgumentReader {
  if (!isApplicationClass(type)) {
    throw Errors.invalidRoute(source, `@Body() on parameter #${index} needs a class type, or @Body(Class)`);
  }
  return async (ctx) => {
    const result = await ctx.bind(type as Class<object>);
    if (!result.ok) throw result.error;
    return result.value;
  };
}
