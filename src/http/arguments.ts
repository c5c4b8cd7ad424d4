import type { Request } from 'express';
import type { Class } from '../container/token';
import { isApplicationClass } from '../metadata/design-types';
import { bindBody, bindQuery, prepareBinding, type BindResult } from './bind';
import type { Context } from './context';
import { RoutingErrors } from '../errors/routing-errors';
import { isThenable } from './thenable';
import { requestCookies } from './cookies';
import { validateSchema, type StandardSchemaV1 } from '../binding/standard-schema';
import { schemaResult } from './bind';

/** The request reads a handler parameter can be decorated with. */
export type ParamSource = 'param' | 'query' | 'form' | 'body' | 'headers' | 'cookies' | 'ctx' | 'custom';

/** What one decorated parameter reads: its source, and the decorator's arguments. */
export interface ArgumentSpec {
  readonly index: number;
  readonly source: ParamSource;
  readonly name?: string;
  readonly fallback?: string;
  /** For `@Body(Class)`: the class to bind into; otherwise the parameter's declared type. */
  readonly type?: Class;
  /** For `@Body(schema)`, `@Query(schema)` and `@Param(name, schema)`: the Standard Schema that validates the value. */
  readonly schema?: StandardSchemaV1;
  /** For decorators made by `createParamDecorator`: what reads the value, and the decorator's argument. */
  readonly read?: (ctx: Context, data: unknown) => unknown;
  readonly data?: unknown;
  /** For `@Cookies(name, { signed: true })`: verify the cookie's signature. */
  readonly signed?: boolean;
}

/** Reads one argument of a handler from its request: a value, or a promise of one; throws (or rejects) for a refused request. */
export type ArgumentReader = (ctx: Context, req: Request) => unknown;

/**
 * The reader of one decorated parameter, built once at boot: `@Param`, `@Query(name)` and `@Form`
 * read strings through the context, `@Ctx` gives it, `@Body()` and a whole `@Query()` bind into a
 * class (answering 415 or 422 before the handler runs), a custom decorator calls its function. A
 * `@Body()` or `@Query()` without a class to bind into is a boot error naming `source`.
 *
 * @example
 * const read = argumentReader({ index: 0, source: 'param', name: 'id' }, String, 'OrderController.show');
 */
export function argumentReader(spec: ArgumentSpec, declaredType: unknown, source: string): ArgumentReader {
  const { name = '', fallback } = spec;
  if (spec.schema) return schemaReader(spec, spec.schema);
  switch (spec.source) {
    case 'param':
      return (ctx) => ctx.param(name);
    case 'query':
      if (isWholeQuery(spec))
        return classReader(declaredType, source, spec, (_ctx, req, type) => bindQuery(req, type));
      return (ctx) => (fallback === undefined ? ctx.query(name) : ctx.query(name, fallback));
    case 'form':
      return (ctx) => (fallback === undefined ? ctx.form(name) : ctx.form(name, fallback));
    case 'headers':
      // Node's own headers object, not Express's request: reading it loads nothing.
      if (spec.name === undefined) return (_ctx, req) => req.headers;
      return (ctx) => (fallback === undefined ? ctx.requestHeader(name) : ctx.requestHeader(name, fallback));
    case 'cookies': {
      if (spec.name === undefined) return (_ctx, req) => ({ ...requestCookies(req) });
      const options = { signed: spec.signed === true };
      return (ctx) => ctx.cookie(name, options);
    }
    case 'ctx':
      return (ctx) => ctx;
    case 'body':
      return classReader(spec.type ?? declaredType, source, spec, (_ctx, req, type) => bindBody(req, type));
    case 'custom': {
      const { read, data } = spec;
      return (ctx) => read?.(ctx, data);
    }
  }
}

/** Whether the reader of `spec` answers with a promise. @example isAsyncArgument({ index: 0, source: 'body' }) // true */
export function isAsyncArgument(spec: ArgumentSpec): boolean {
  return (
    spec.source === 'body' || spec.source === 'custom' || isWholeQuery(spec) || spec.schema !== undefined
  );
}

function isWholeQuery(spec: ArgumentSpec): boolean {
  return spec.source === 'query' && spec.name === undefined;
}

type Binder = (
  ctx: Context,
  req: Request,
  type: Class<object>,
) => BindResult<object> | Promise<BindResult<object>>;

// `@Body()` and `@Query()` bind into a class: the 415 or 422 answers before the handler runs.
function classReader(type: unknown, source: string, spec: ArgumentSpec, bind: Binder): ArgumentReader {
  if (!isApplicationClass(type)) {
    const decorator = spec.source === 'body' ? '@Body() ' : '@Query() ';
    throw RoutingErrors.invalidRoute(
      source,
      `${decorator}on parameter #${spec.index} needs a class type${spec.source === 'body' ? ', or @Body(Class)' : ''}`,
    );
  }
  prepareBinding(type as Class);
  // A compiled binding answers at once, and so does the reader: the handler then runs in the same
  // tick, with no promise between the parsed body and its answer.
  return (ctx, req) => {
    const result = bind(ctx, req, type as Class<object>);
    return isThenable(result) ? result.then(boundValue) : boundValue(result);
  };
}

// A schema's reader answers at once when the schema does (zod's synchronous schemas), as a compiled class's does.
function schemaReader(spec: ArgumentSpec, schema: StandardSchemaV1): ArgumentReader {
  const { name = '' } = spec;
  const read: ArgumentReader =
    spec.source === 'body'
      ? (_ctx, req) => bindBody(req, schema)
      : spec.source === 'query' && spec.name === undefined
        ? (_ctx, req) => bindQuery(req, schema)
        : (ctx) => schemaResult(validateSchema(schema, ctx.param(name), name));
  return (ctx, req) => {
    const result = read(ctx, req) as BindResult<object> | Promise<BindResult<object>>;
    return isThenable(result) ? result.then(boundValue) : boundValue(result);
  };
}

function boundValue(result: BindResult<object>): object {
  if (!result.ok) throw result.error;
  return result.value;
}
