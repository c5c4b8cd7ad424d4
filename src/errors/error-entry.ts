import { CliError } from './cli-error';
import { FrameworkError } from './framework-error';
import { HttpError, type FieldErrors } from './http-error';

/**
 * What an error carries besides its message: its cause, and for an answer its headers, fields and `expose`.
 *
 * @example
 * const extras: ErrorExtras = { headers: { 'Retry-After': '2' } };
 */
export interface ErrorExtras {
  readonly cause?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly fields?: FieldErrors;
  readonly expose?: boolean;
}

/**
 * One error of the catalogue, declared as data: its code, the HTTP status of an answer or the exit
 * code of a command, and how its message (and, when it has them, its extras) is written from the
 * builder's arguments. An entry with a status builds an {@link HttpError}, one with an exit code a
 * {@link CliError}, any other a {@link FrameworkError}.
 *
 * @example
 * const entry: ErrorEntry = { code: 'E_ROUTE_NOT_FOUND', status: 404, message: () => 'no route' };
 */
export interface ErrorEntry {
  readonly code: string;
  readonly status?: number;
  readonly exitCode?: number;
  // `never[]` admits a message of any parameters; the builder's own type keeps them.
  readonly message: (...args: never[]) => string;
  /** Reads the builder's arguments as `message` does. */
  readonly extras?: (...args: never[]) => ErrorExtras;
}

type ArgsOf<E extends ErrorEntry> = E['message'] extends (...args: infer A) => string ? A : never;

/**
 * The error an entry builds: an HttpError for a status, a CliError for an exit code, else a FrameworkError.
 *
 * @example
 * type NotFound = BuiltError<typeof RequestErrors.routeNotFound>; // HttpError & { code: 'E_ROUTE_NOT_FOUND'; status: 404 }
 */
export type BuiltError<E extends ErrorEntry> = E extends { readonly status: infer Status extends number }
  ? HttpError & { readonly code: E['code']; readonly status: Status }
  : E extends { readonly exitCode: number }
    ? CliError<E['code']>
    : FrameworkError<E['code']>;

/**
 * A builder of the catalogue: called, it builds its error; read, it is its entry, so the code (and
 * status or exit code) is known without building anything.
 *
 * @example
 * throw RoutingErrors.routeConflict('GET', '/x', 'A.index', 'B.index'); // RoutingErrors.routeConflict.code === 'E_ROUTE_CONFLICT'
 */
export type ErrorBuilder<E extends ErrorEntry> = ((...args: ArgsOf<E>) => BuiltError<E>) & E;

/**
 * A group of the catalogue: one builder per key.
 *
 * @example
 * const group: ErrorGroup<{ gone: { code: 'E_GONE'; status: 410; message: () => string } }> = defineErrors({ ... });
 */
export type ErrorGroup<G extends Readonly<Record<string, ErrorEntry>>> = {
  readonly [K in keyof G]: ErrorBuilder<G[K]>;
};

/**
 * Turns a feature's table of entries into its builders, each keeping its entry's fields.
 *
 * @example
 * export const SessionErrors = defineErrors({
 *   invalidSecret: { code: 'E_INVALID_SESSION_SECRET', message: () => 'the secret gave no key' },
 * });
 */
export function defineErrors<const G extends Readonly<Record<string, ErrorEntry>>>(
  entries: G,
): ErrorGroup<G> {
  const group: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(entries)) group[key] = builderOf(entry);
  return Object.freeze(group) as ErrorGroup<G>;
}

function builderOf(entry: ErrorEntry): (...args: never[]) => Error {
  const build = (...args: never[]): Error => {
    const message = entry.message(...args);
    const extras = entry.extras?.(...args) ?? {};
    if (entry.status !== undefined) {
      return new HttpError(entry.status, message, { ...extras, code: entry.code });
    }
    if (entry.exitCode !== undefined) return new CliError(entry.code, entry.exitCode, message);
    // An error without a cause has no `cause` property at all, as before the catalogue.
    return new FrameworkError(entry.code, message, 'cause' in extras ? { cause: extras.cause } : undefined);
  };
  return Object.freeze(Object.assign(build, entry));
}
