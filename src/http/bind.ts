import type { Request } from 'express';
import type { Class } from '../container/token';
import type { FieldErrors, HttpError } from '../errors';
import { RequestErrors } from '../errors/request-errors';
import { bodyKind } from './body-stage';
import { convertFormFields } from '../binding/form-fields';
import { requestQuery } from './request-query';
import { Uncompiled } from '../binding/binding-copy';
import { compiledBinding, keepInterpreted } from '../binding/compiled-binding';
import { bindInterpreted } from '../binding/interpreted-binding';
import { isStandardSchema, validateSchema, type StandardSchemaV1 } from '../binding/standard-schema';

/** What a body or query string binds into: a class with validation rules, or a Standard Schema. */
export type BindTarget<T> = Class<T> | StandardSchemaV1<unknown, T>;

/**
 * What `ctx.bind(Class)` gives: the validated instance, or why there is none. A failure carries
 * `error`, ready to throw for the standard JSON answer.
 *
 * @example
 * const input = await ctx.bind(CreateOrder);
 * if (!input.ok) throw input.error;   // 415, or 422 {"error":"validation failed","fields":{...}}
 */
export type BindResult<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly status: 415 | 422;
      readonly errors: FieldErrors;
      readonly error: HttpError;
    };

const MAX_DEPTH = 32;

/** How a class is bound: its compiled binding when it has one, or class-transformer and class-validator. */
export type BindingMode = 'compiled' | 'interpreted';

// Decided once, at load: `KEEL_COMPILED_VALIDATION=0` binds every class through class-validator.
const DEFAULT_MODE: BindingMode = process.env.KEEL_COMPILED_VALIDATION === '0' ? 'interpreted' : 'compiled';

/**
 * Binds the request body into `type` and validates it; never throws for bad input. `mode` is
 * `'compiled'` unless `KEEL_COMPILED_VALIDATION=0`. A compiled binding answers at once, an
 * interpreted one (class-validator's) with a promise: a caller that awaits it waits for nothing more.
 * A Standard Schema gets the parsed body as it came (a form's fields as strings) and gives its output.
 */
export function bindBody<T>(
  req: Request,
  type: BindTarget<T>,
  mode: BindingMode = DEFAULT_MODE,
): BindResult<T> | Promise<BindResult<T>> {
  // Clients send `Content-Length: 0` and no type for an empty POST: that is no body, not an unknown type.
  const kind = isEmpty(req) ? null : bodyKind(req);
  if (kind === false) {
    const error = RequestErrors.unsupportedContentType(req.headers['content-type'] ?? 'none');
    return { ok: false, status: error.status, errors: {}, error };
  }
  const isForm = kind !== null && kind !== 'json';
  const body: unknown = kind === null ? {} : req.body;
  if (isStandardSchema(type)) {
    if (nestingExceeds(body, MAX_DEPTH))
      return invalid({ body: [`must not nest deeper than ${MAX_DEPTH} levels`] });
    return schemaResult(validateSchema(type, body, 'body'));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid({ body: ['must be an object'] });
  }
  // Deeper input would exhaust the stack in the recursive copy of the body into the class.
  if (nestingExceeds(body, MAX_DEPTH))
    return invalid({ body: [`must not nest deeper than ${MAX_DEPTH} levels`] });
  return validateInto(type as Class<T & object>, isForm ? convertFormFields(type, body) : body, mode) as
    BindResult<T> | Promise<BindResult<T>>;
}

/**
 * Binds a value that came other than as a request body (a WebSocket frame's `data`) into `type`, as
 * {@link bindBody} binds a JSON body; never throws for bad input.
 *
 * @example
 * const said = await bindValue(frame.data, Say); // { ok: false, status: 422, errors: {...} }
 */
export function bindValue<T>(
  value: unknown,
  type: BindTarget<T>,
  mode: BindingMode = DEFAULT_MODE,
): BindResult<T> | Promise<BindResult<T>> {
  if (nestingExceeds(value, MAX_DEPTH))
    return invalid({ body: [`must not nest deeper than ${MAX_DEPTH} levels`] });
  if (isStandardSchema(type)) return schemaResult(validateSchema(type, value, 'body'));
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return invalid({ body: ['must be an object'] });
  return validateInto(type as Class<T & object>, value, mode) as BindResult<T> | Promise<BindResult<T>>;
}

/**
 * Binds the query string into `type` and validates it, its strings converted to the declared
 * number and boolean types as a form's are; never throws for bad input. `mode` as for {@link bindBody}.
 *
 * @example
 * const filter = await bindQuery(req, OrderFilter); // { ok: true, value: { page: 2 } }
 */
export function bindQuery<T>(
  req: Request,
  type: BindTarget<T>,
  mode: BindingMode = DEFAULT_MODE,
): BindResult<T> | Promise<BindResult<T>> {
  const query = requestQuery(req);
  if (isStandardSchema(type)) return schemaResult(validateSchema(type, query, 'query'));
  return validateInto(
    type as Class<T & object>,
    convertFormFields(type, typeof query === 'object' && query !== null ? query : {}),
    mode,
  );
}

/**
 * Compiles the binding of `type` now, for a class a route names at boot (`@Body()`, `@Query()`), so
 * that its first request finds it ready; nothing when compilation is off.
 *
 * @example
 * prepareBinding(CreateOrder);
 */
export function prepareBinding(type: Class): void {
  if (DEFAULT_MODE === 'compiled') compiledBinding(type);
}

type Bound = { readonly value: object; readonly fields: FieldErrors | undefined };

// A compiled binding answers at once: no promise of its own inside the caller's.
function validateInto<T extends object>(
  type: Class<T>,
  plain: object,
  mode: BindingMode,
): BindResult<T> | Promise<BindResult<T>> {
  const compiled = mode === 'compiled' ? bindCompiled(type, plain) : undefined;
  if (compiled) return resultOf<T>(compiled, plain);
  return bindInterpreted(type, plain).then((bound) => resultOf<T>(bound, plain));
}

/**
 * The bind result of a Standard Schema's validation, at once when the schema answered at once.
 *
 * @example
 * schemaResult(validateSchema(schema, ctx.param('id'), 'id'));
 */
export function schemaResult<T>(
  bound: ReturnType<typeof validateSchema>,
): BindResult<T> | Promise<BindResult<T>> {
  const settle = ({ value, fields }: Awaited<typeof bound>): BindResult<T> =>
    fields ? invalid(fields) : { ok: true, value: value as T };
  return bound instanceof Promise ? bound.then(settle) : settle(bound);
}

function resultOf<T extends object>({ value, fields }: Bound, plain: object): BindResult<T> {
  if (fields) return invalid(fields);
  return { ok: true, value: withoutAbsentFields(value as T, plain) };
}

function bindCompiled(type: Class, plain: object): Bound | undefined {
  const binding = compiledBinding(type);
  if (!binding) return undefined;
  try {
    return binding.bind(plain);
  } catch (error) {
    if (!(error instanceof Uncompiled)) throw error;
    if (error.isPermanent) keepInterpreted(type);
    return undefined;
  }
}

// A class's declared fields start as own properties set to undefined: one the request did not send
// is removed, so that `Object.assign(entity, input)` keeps what the entity had there.
function withoutAbsentFields<T extends object>(value: T, plain: object): T {
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (fields[key] === undefined && !Object.hasOwn(plain, key)) Reflect.deleteProperty(fields, key);
  }
  return value;
}

// Recursion stops at the limit, so it never goes deeper than the limit itself.
function nestingExceeds(value: unknown, levelsLeft: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levelsLeft === 0) return true;
  if (Array.isArray(value)) return value.some((entry: unknown) => nestingExceeds(entry, levelsLeft - 1));
  for (const key in value) {
    if (Object.hasOwn(value, key) && nestingExceeds((value as Record<string, unknown>)[key], levelsLeft - 1))
      return true;
  }
  return false;
}

function isEmpty(req: Request): boolean {
  return req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length'] ?? 0) === 0;
}

function invalid(errors: FieldErrors): BindResult<never> {
  return {
    ok: false,
    status: 422,
    errors,
    error: RequestErrors.validationFailed(errors),
  };
}
