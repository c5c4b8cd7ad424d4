import type { FieldErrors } from '../errors';
import { DatabaseAnswers } from '../errors/database-answers';

/** What the client is told about a database error its own input caused. */
export interface DatabaseInputAnswer {
  readonly status: 400 | 409 | 422;
  readonly message: string;
  readonly fields?: FieldErrors;
}

// An entry of the catalogue with a 4xx status: its message is shown with the constraint or column
// the driver named, when it named one.
interface InputErrorKind {
  readonly status: 400 | 409 | 422;
  readonly message: () => string;
}

const TOO_LONG: InputErrorKind = DatabaseAnswers.valueTooLong;
const OUT_OF_RANGE: InputErrorKind = DatabaseAnswers.valueOutOfRange;
const REQUIRED: InputErrorKind = DatabaseAnswers.valueRequired;
const CHECK: InputErrorKind = DatabaseAnswers.checkViolated;
const INVALID: InputErrorKind = DatabaseAnswers.invalidInputValue;
const DUPLICATE: InputErrorKind = DatabaseAnswers.valueAlreadyExists;
const REFERENCE: InputErrorKind = DatabaseAnswers.foreignKeyViolated;

// SQLSTATE codes, shared by PostgreSQL and PGlite (its errors are PostgreSQL's own): the classes 22
// (data exception) and 23 (integrity constraint violation) that a client's input reaches.
const SQLSTATES: Readonly<Record<string, InputErrorKind>> = {
  '22001': TOO_LONG,
  '22003': OUT_OF_RANGE,
  '22007': INVALID,
  '22008': OUT_OF_RANGE,
  '22021': INVALID,
  '22P02': INVALID,
  '23502': REQUIRED,
  '23503': REFERENCE,
  '23505': DUPLICATE,
  '23514': CHECK,
  '23P01': DUPLICATE,
};

// MariaDB and MySQL error codes (mysql2's `code`).
const MYSQL_CODES: Readonly<Record<string, InputErrorKind>> = {
  ER_DATA_TOO_LONG: TOO_LONG,
  ER_WARN_DATA_OUT_OF_RANGE: OUT_OF_RANGE,
  ER_BAD_NULL_ERROR: REQUIRED,
  ER_NO_DEFAULT_FOR_FIELD: REQUIRED,
  ER_TRUNCATED_WRONG_VALUE: INVALID,
  ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: INVALID,
  ER_DUP_ENTRY: DUPLICATE,
  ER_NO_REFERENCED_ROW: REFERENCE,
  ER_NO_REFERENCED_ROW_2: REFERENCE,
  ER_ROW_IS_REFERENCED: REFERENCE,
  ER_ROW_IS_REFERENCED_2: REFERENCE,
  ER_CHECK_CONSTRAINT_VIOLATED: CHECK,
  ER_CONSTRAINT_FAILED: CHECK,
};

// mysql2 names the column or key only inside its message; only these names are taken from it, never
// the value, which a duplicate-entry message quotes.
const MYSQL_COLUMN = /column '([^']+)'/i;
const MYSQL_CONSTRAINT = /(?:for key '([^']+)'|CONSTRAINT `([^`]+)`|constraint '([^']+)')/;

interface DriverError {
  readonly code?: unknown;
  readonly severity?: unknown;
  readonly column?: unknown;
  readonly constraint?: unknown;
  readonly errno?: unknown;
  readonly sqlMessage?: unknown;
}

/**
 * The 4xx answer for a database error the request's own input caused (a value too long, out of
 * range or malformed, a unique or foreign-key violation), naming the column or constraint and never
 * the SQL; undefined for every other error. Reads PostgreSQL, PGlite and MariaDB/MySQL errors, bare
 * or wrapped in TypeORM's `QueryFailedError`.
 *
 * @example
 * describeDatabaseInputError(queryFailed); // { status: 409, message: 'value already exists: constraint "orders_code_key"' }
 */
export function describeDatabaseInputError(error: unknown): DatabaseInputAnswer | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const driver = ((error as { driverError?: unknown }).driverError ?? error) as DriverError;
  if (typeof driver.code !== 'string') return undefined;
  if (typeof driver.severity === 'string') {
    const kind = SQLSTATES[driver.code];
    return kind && answer(kind, textOf(driver.column), textOf(driver.constraint));
  }
  if (typeof driver.errno === 'number' && typeof driver.sqlMessage === 'string') {
    const kind = MYSQL_CODES[driver.code];
    if (!kind) return undefined;
    const key = MYSQL_CONSTRAINT.exec(driver.sqlMessage);
    return answer(kind, MYSQL_COLUMN.exec(driver.sqlMessage)?.[1], key?.slice(1).find(Boolean));
  }
  return undefined;
}

function answer(kind: InputErrorKind, column?: string, constraint?: string): DatabaseInputAnswer {
  if (column) {
    const message = `${column}: ${kind.message()}`;
    return { status: kind.status, message, fields: { [column]: [message] } };
  }
  const message = constraint ? `${kind.message()}: constraint "${constraint}"` : kind.message();
  return { status: kind.status, message };
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
