import { types } from 'node:util';

/**
 * The message of anything thrown, Error or not. Errors are recognised by their shape, not
 * `instanceof`: a driver's error may come from another realm (a VM context, a test sandbox). Node
 * reports a refused connection to a name with several addresses as an AggregateError with an empty
 * message; its first error says what happened.
 * @example messageOf(new Error('boom')) // 'boom'
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error || types.isNativeError(error))) return String(error);
  const { errors } = error as { errors?: unknown };
  if (!error.message && Array.isArray(errors) && errors.length > 0) return messageOf(errors[0]);
  return error.message || (error as NodeJS.ErrnoException).code || error.name;
}

/** A value as an error message shows it: `class Foo`, `an object with keys [a, b]`, `"text"`. @example describeValue(undefined) // 'undefined' */
export function describeValue(value: unknown): string {
  if (typeof value === 'function') return `class ${value.name || '<anonymous>'}`;
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an object with keys [${Object.keys(value).join(', ')}]`;
  return JSON.stringify(value);
}

/**
 * A human-readable name for a dependency-injection token, used in every error message. An
 * `InjectionToken` names itself through its own `toString()`, so the catalogue needs no import of
 * the container.
 * @example tokenName(OrderService) // 'OrderService'
 */
export function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name || '<anonymous class>';
  if (typeof token === 'symbol') return token.toString();
  if (typeof token === 'string') return `'${token}'`;
  return String(token);
}
