import type { Class } from '../container/token';
import type { ParamTarget, PipeTransform } from '../hooks/hook-types';
import { resolveHook } from '../hooks/resolve-hooks';
import { bindQuery } from '../http/bind';
import type { Request } from 'express';
import type { Context } from '../http/context';
import { isApplicationClass } from '../metadata/design-types';
import { MetadataKey } from '../metadata/keys';
import { getMethodParamTypes, getOwnMetadata, prototypeDeclaring } from '../metadata/reflection';
import { pathParameters } from './path';
import type { PreparedHandler } from '../http/exchange';
import type { ParamMetadata } from './route-metadata';
import { HookErrors } from '../hooks/hook-errors';
import { HandlerErrors } from '../http/handler-errors';

type ArgumentReader = (ctx: Context, req: Request) => unknown;

/** Where a controller method is, and how its pipes are built. */
export interface MethodHandlerSpec {
  readonly instance: object;
  readonly property: string | symbol;
  /** The route's path, to check the `@Param`s against. */
  readonly path: string;
  /** Builds pipe classes through DI in the controller's module. */
  readonly resolve: <T>(type: Class<T>) => T;
}

/**
 * Prepares the handler for one controller method, reading its parameter decorators once: a method
 * without them receives the context; with them, each parameter receives its read passed through its
 * pipes (undecorated ones the context). Returns undefined when the method does not exist; an `@Param`
 * the path does not declare is a boot error.
 *
 * @example
 * const handler = createMethodHandler({ instance, property: 'show', path: '/orders/:id', resolve });
 */
export function createMethodHandler(spec: MethodHandlerSpec): PreparedHandler | undefined {
  const { instance, property, path } = spec;
  const method: unknown = (instance as Record<string | symbol, unknown>)[property];
  if (typeof method !== 'function') return undefined;
  const prototype = prototypeDeclaring(Object.getPrototypeOf(instance) as object, property);
  const params = getOwnMetadata<readonly ParamMetadata[]>(MetadataKey.params, prototype, property) ?? [];
  if (params.length === 0) return (ctx) => method.call(instance, ctx) as unknown;

  const source = `${instance.constructor.name}.${String(property)}`;
  const declared = pathParameters(path);
  for (const param of params) {
    if (param.source === 'param' && !declared.has(param.name ?? '')) {
      throw HandlerErrors.unknownParam(`${source} (${path})`, param.name ?? '');
    }
  }
  const types = getMethodParamTypes(prototype, property);
  const count = Math.max(method.length, ...params.map((param) => param.index + 1));
  const readers: ArgumentReader[] = Array.from({ length: count }, () => (ctx) => ctx);
  for (const param of params) {
    const read = argumentReader(param, types[param.index], source);
    readers[param.index] = withPipes(read, param, types[param.index], { ...spec, source });
  }
  const isAsync = params.some(
    (param) =>
      param.source === 'body' ||
      param.source === 'custom' ||
      (param.pipes?.length ?? 0) > 0 ||
      isWholeQuery(param),
  );

  if (!isAsync)
    return (ctx, req) =>
      method.apply(
        instance,
        readers.map((read) => read(ctx, req)),
      ) as unknown;
  return async (ctx, req) => {
    const args: unknown[] = [];
    for (const read of readers) args.push(await read(ctx, req));
    return method.apply(instance, args) as unknown;
  };
}

function argumentReader(param: ParamMetadata, declaredType: unknown, source: string): ArgumentReader {
  const { name = '', fallback } = param;
  switch (param.source) {
    case 'param':
      return (ctx) => ctx.param(name);
    case 'query':
      if (isWholeQuery(param))
        return classReader(declaredType, source, param, (_ctx, req, type) => bindQuery(req, type));
      return (ctx) => (fallback === undefined ? ctx.query(name) : ctx.query(name, fallback));
    case 'form':
      return (ctx) => (fallback === undefined ? ctx.form(name) : ctx.form(name, fallback));
    case 'ctx':
      return (ctx) => ctx;
    case 'body':
      return classReader(param.type ?? declaredType, source, param, (ctx, _req, type) => ctx.bind(type));
    case 'custom': {
      const { read, data } = param;
      return (ctx) => read?.(ctx, data);
    }
  }
}

function isWholeQuery(param: ParamMetadata): boolean {
  return param.source === 'query' && param.name === undefined;
}

type Binder = (
  ctx: Context,
  req: Request,
  type: Class<object>,
) => Promise<{ ok: true; value: object } | { ok: false; error: Error }>;

// `@Body()` and `@Query()` bind into a class: the 415 or 422 answers before the handler runs.
function classReader(type: unknown, source: string, param: ParamMetadata, bind: Binder): ArgumentReader {
  if (!isApplicationClass(type)) {
    const decorator = param.source === 'body' ? '@Body() ' : '@Query() ';
    throw HookErrors.invalidRoute(
      source,
      `${decorator}on parameter #${param.index} needs a class type${param.source === 'body' ? ', or @Body(Class)' : ''}`,
    );
  }
  return async (ctx, req) => {
    const result = await bind(ctx, req, type as Class<object>);
    if (!result.ok) throw result.error;
    return result.value;
  };
}

function withPipes(
  read: ArgumentReader,
  param: ParamMetadata,
  declaredType: unknown,
  spec: MethodHandlerSpec & { readonly source: string },
): ArgumentReader {
  const pipes = (param.pipes ?? []).map((entry) =>
    resolveHook<PipeTransform>(entry, {
      kind: 'a pipe',
      method: 'transform',
      source: spec.source,
      resolve: spec.resolve,
    }),
  );
  if (pipes.length === 0) return read;
  const target: ParamTarget = {
    source: param.source === 'ctx' ? 'custom' : param.source,
    name: param.name,
    type: declaredType,
  };
  return async (ctx, req) => {
    let value = await read(ctx, req);
    for (const pipe of pipes) value = await pipe.transform(value, ctx, target);
    return value;
  };
}
