import type { Class } from '../container/token';
import type { ArgumentReader } from '../http/arguments';
import type { HookEntry, ParamTarget, PipeTransform } from './hook-types';
import { resolveHook } from './resolve-hooks';

/** Where a parameter's pipes come from, and what they are told about it. */
export interface PipeChainSpec {
  readonly pipes: readonly HookEntry<PipeTransform>[];
  readonly target: ParamTarget;
  /** The handler, as a boot error names it. */
  readonly source: string;
  /** Builds pipe classes through DI in the controller's module. */
  readonly resolve: <T>(type: Class<T>) => T;
}

/**
 * Passes what `read` gives through the parameter's pipes, in order, each built once at boot (a
 * pipe without `transform` is a boot error naming the handler). No pipes: `read` itself.
 *
 * @example
 * const read = withPipes(argumentReader(spec, Number, source), { pipes: [ParseIntPipe], target, source, resolve });
 */
export function withPipes(read: ArgumentReader, spec: PipeChainSpec): ArgumentReader {
  const { source, resolve, target } = spec;
  const pipes = spec.pipes.map((entry) =>
    resolveHook<PipeTransform>(entry, { kind: 'a pipe', method: 'transform', source, resolve }),
  );
  if (pipes.length === 0) return read;
  return async (ctx, req) => {
    let value = await read(ctx, req);
    for (const pipe of pipes) value = await pipe.transform(value, ctx, target);
    return value;
  };
}
