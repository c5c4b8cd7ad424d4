import { CliErrors } from '../errors/cli-errors';
import { capitalise, identifierProblem, nameWords } from './naming';

/** The names of one migration: its class and its file, both ending in its timestamp as TypeORM wants. */
export interface MigrationNames {
  /** `AddOrderNote1700000000000`: TypeORM reads the order of migrations from the last 13 digits. */
  readonly className: string;
  /** `1700000000000-add-order-note`, the file name without its extension. */
  readonly fileName: string;
}

const VALID_NAME_HINT =
  'a migration name starts with a letter and has only letters and digits, its words joined by case or ' +
  'by - or _ (AddOrderNote, add-order-note); nothing was written';

/**
 * Derives a migration's class and file names from the name the user typed and the moment it is
 * made (milliseconds since 1970, 13 digits until the year 2286); an invalid name throws
 * `E_INVALID_NAME`, saying what a valid one looks like.
 *
 * @example
 * migrationNames('AddOrderNote', 1700000000000);
 * // { className: 'AddOrderNote1700000000000', fileName: '1700000000000-add-order-note' }
 */
export function migrationNames(input: string, timestamp: number): MigrationNames {
  const problem = identifierProblem(input);
  if (problem) throw CliErrors.invalidName(input, problem, VALID_NAME_HINT, 'a migration');
  const words = nameWords(input);
  return {
    className: `${words.map(capitalise).join('')}${timestamp}`,
    fileName: `${timestamp}-${words.map((word) => word.toLowerCase()).join('-')}`,
  };
}
