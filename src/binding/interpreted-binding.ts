import type { ClassConstructor } from 'class-transformer';
import type { ValidationError } from 'class-validator';
import type { Class } from '../container/token';
import type { FieldErrors } from '../errors';

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

/**
 * `plain` bound into `type` by class-transformer and validated by class-validator, each rule
 * interpreted at each call: the instance, and its failures by field path (none: valid).
 * class-transformer skips `__proto__` and `constructor` keys, so input cannot reach a prototype.
 *
 * @example
 * const { value, fields } = await bindInterpreted(CreateOrder, { item: 'tea' });
 */
export async function bindInterpreted<T extends object>(
  type: Class<T>,
  plain: object,
): Promise<{ value: T; fields: FieldErrors | undefined }> {
  const { plainToInstance, validate } = loadValidation();
  const value = plainToInstance(type as unknown as ClassConstructor<T>, plain);
  const failures = await validate(value, { whitelist: true, forbidUnknownValues: true });
  return { value, fields: failures.length > 0 ? flatten(failures) : undefined };
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
