import type { Class } from '../container/token';
import type { ParamTarget } from '../hooks/hook-types';
import { withPipes } from '../hooks/pipe-chain';
import { argumentReader, isAsyncArgument, type ArgumentReader } from '../http/arguments';
import { MetadataKey } from '../metadata/keys';
import { getMethodParamTypes, getOwnMetadata, prototypeDeclaring } from '../metadata/reflection';
import { pathParameters } from './path';
import type { PreparedHandler } from '../http/exchange';
import type { ParamMetadata } from './route-metadata';
import { RoutingErrors } from '../errors/routing-errors';
import type { Context } from '../http/context';
import type { Request } from 'express';
import { isThenable } from '../http/thenable';

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
      throw RoutingErrors.unknownParam(`${source} (${path})`, param.name ?? '');
    }
  }
  const types = getMethodParamTypes(prototype, property);
  const count = Math.max(method.length, ...params.map((param) => param.index + 1));
  const readers: ArgumentReader[] = Array.from({ length: count }, () => (ctx) => ctx);
  for (const param of params) {
    const type: unknown = types[param.index];
    const target: ParamTarget = {
      source: param.source === 'ctx' ? 'custom' : param.source,
      name: param.name,
      type,
    };
    readers[param.index] = withPipes(argumentReader(param, type, source), {
      pipes: param.pipes ?? [],
      target,
      source,
      resolve: spec.resolve,
    });
  }
  const isAsync = params.some((param) => isAsyncArgument(param) || (param.pipes?.length ?? 0) > 0);

  if (!isAsync)
    return (ctx, req) =>
      method.apply(
        instance,
        readers.map((read) => read(ctx, req)),
      ) as unknown;
  // Each argument is read once the one before it is known, as an `await` of each would, but a
  // reader that answers at once (a compiled body, a path parameter) costs no promise and no tick.
  const callWith = (args: unknown[]): unknown => method.apply(instance, args) as unknown;
  const readRest = async (
    ctx: Context,
    req: Request,
    args: unknown[],
    pending: unknown,
  ): Promise<unknown> => {
    args.push(await pending);
    for (let index = args.length; index < readers.length; index += 1)
      args.push(await (readers[index] as ArgumentReader)(ctx, req));
    return callWith(args);
  };
  return (ctx, req) => {
    const args: unknown[] = [];
    try {
      for (const read of readers) {
        const value = read(ctx, req);
        if (isThenable(value)) return readRest(ctx, req, args, value);
        args.push(value);
      }
    } catch (error) {
      // A refused argument fails the call as it always has: as a rejection, not a throw.
      return Promise.reject(error as Error);
    }
    return callWith(args);
  };
}
