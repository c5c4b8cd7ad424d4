import type { ClassConstructor } from 'class-transformer';
import type { ValidationError } from 'class-validator';
import type { Request } from 'express';
import type { Class } from '../container/token';
import { HttpError } from './http-error';
import { type FieldErrors } from './http-error';
import { bodyKind } from './body-stage';
import { convertFormFields } from './form-fields';
import { requestQuery } from './request-query';

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

/** Binds the request body into `type` and validates it; never throws for bad input. */
export async function bindBody<T extends object>(req: Request, type: Class<T>): Promise<BindResult<T>> {
  // Clients send `Content-Length: 0` and no type for an empty POST: that is no body, not an unknown type.
  const kind = isEmpty(req) ? null : bodyKind(req);
  if (kind === false) {
    const message = `unsupported content type "${req.headers['content-type'] ?? 'none'}": send JSON or a form`;
    return { ok: false, status: 415, errors: {}, error: new HttpError(415, message) };
  }
  const isForm = kind !== null && kind !== 'json';
  const body: unknown = kind === null ? {} : req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid({ body: ['must be an object'] });
  }
  // Deeper input would exhaust the stack in class-transformer's recursive walk.
  if (nestingExceeds(body, MAX_DEPTH))
    return invalid({ body: [`must not nest deeper than ${MAX_DEPTH} levels`] });
  return validateInto(type, isForm ? convertFormFields(type, body) : body);
}

/**
 * Binds the query string into `type` and validates it, its strings converted to the declared
 * number and boolean types as a form's are; never throws for bad input.
 *
 * @example
 * const filter = await bindQuery(req, OrderFilter); // { ok: true, value: { page: 2 } }
 */
export function bindQuery<T extends object>(req: Request, type: Class<T>): Promise<BindResult<T>> {
  const query = requestQuery(req);
  return validateInto(
    type,
    convertFormFields(type, typeof query === 'object' && query !== null ? query : {}),
  );
}

// class-transformer skips `__proto__` and `constructor` keys, so input cannot reach a prototype.
async function validateInto<T extends object>(type: Class<T>, plain: object): Promise<BindResult<T>> {
  const { plainToInstance, validate } = loadValidation();
  const value = plainToInstance(type as unknown as ClassConstructor<T>, plain);
  const failures = await validate(value, { whitelist: true, forbidUnknownValues: true });
  if (failures.length > 0) return invalid(flatten(failures));
  return { ok: true, value: withoutAbsentFields(value, plain) };
}

interface Validation {
  readonly plainToInstance: (typeof import('class-transformer'))['plainToInstance'];
  readonly validate: (typeof import('class-validator'))['validate'];
}

let validation: Validation | undefined;

// class-transformer and class-validator load with the first body bound (an application whose DTOs
// import them has them already); a service that binds nothing starts without them.
function loadValidation(): Validation {
  if (validation) return validation;
  /* eslint-disable @typescript-eslint/no-require-imports -- deferred loads */
  const { plainToInstance } = require('class-transformer') as typeof import('class-transformer');
  const { validate } = require('class-validator') as typeof import('class-validator');
  /* eslint-enable @typescript-eslint/no-require-imports */
  validation = { plainToInstance, validate };
  return validation;
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

function nestingExceeds(root: object, limit: number): boolean {
  const pending: [unknown, number][] = [[root, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
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
    error: new HttpError(422, 'validation failed', { fields: errors }),
  };
}

function flatten(failures: readonly ValidationError[], prefix = ''): FieldErrors {
  const fields: FieldErrors = {};
  for (const failure of failures) {
    const path = prefix ? `${prefix}.${failure.property}` : failure.property;
    if (failure.constraints) fields[path] = Object.values(failure.constraints);
    Object.assign(fields, flatten(failure.children ?? [], path));
  }
  return fields;
}
