import pluralize from 'pluralize';
import { CliErrors } from '../errors/cli-errors';

/** Every name the generator derives from the one the user typed. */
export interface ControllerNames {
  /** `OrderItemController` */
  readonly className: string;
  /** `order-item`, the file name without its extension */
  readonly fileName: string;
  /** `order-items`, the resource's path */
  readonly path: string;
  /** `orderItem`, a variable holding one */
  readonly variable: string;
  /** `orderItems`, a variable holding many */
  readonly collection: string;
}

const VALID_NAME = /^[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*$/;

// Words that cannot name a variable or that read as syntax in a route, compared case-insensitively.
const RESERVED_WORDS = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends ' +
    'false finally for function if implements import in instanceof interface let new null package ' +
    'private protected public return static super switch this throw true try typeof var void while with yield'
  ).split(' '),
);

const VALID_NAME_HINT =
  'a controller name starts with a letter and has only letters and digits, its words joined by case or ' +
  'by - or _ (Order, OrderItem, order-item), and is not a reserved word';

/**
 * Why `input` cannot name a controller, or `undefined` when it can.
 *
 * @example
 * nameProblem('9lives'); // 'it does not start with a letter'
 */
export function nameProblem(input: string): string | undefined {
  const problem = identifierProblem(input);
  if (problem) return problem;
  if (RESERVED_WORDS.has(input.toLowerCase())) return `${input} is a reserved word`;
  if (baseWords(input).length === 0) return 'it has nothing before "Controller"';
  return undefined;
}

/**
 * Why `input` cannot be the words of a generated class's name (letters and digits, the words joined
 * by case or by - or _, starting with a letter), or `undefined` when it can.
 *
 * @example
 * identifierProblem('add note'); // 'it contains white space'
 */
export function identifierProblem(input: string): string | undefined {
  if (input.trim() === '') return 'it is empty';
  if (/[/\\.]/.test(input)) return 'it is a path, not a name';
  if (/\s/.test(input)) return 'it contains white space';
  if (!/^[A-Za-z]/.test(input)) return 'it does not start with a letter';
  if (!VALID_NAME.test(input)) return 'it has characters other than letters, digits, - and _';
  return undefined;
}

/**
 * The words of a valid name, split at - and _ and at changes of case.
 *
 * @example
 * nameWords('AddOrderNote'); // ['Add', 'Order', 'Note']
 */
export function nameWords(input: string): string[] {
  return input
    .split(/[-_]/)
    .flatMap((part) =>
      part
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .split(' '),
    )
    .filter((word) => word !== '');
}

/**
 * Derives the class, file, route and variable names of a controller from the name the user typed;
 * an invalid name throws `E_INVALID_NAME`, saying what a valid one looks like.
 *
 * @example
 * controllerNames('OrderItem');
 * // { className: 'OrderItemController', fileName: 'order-item', path: 'order-items',
 * //   variable: 'orderItem', collection: 'orderItems' }
 */
export function controllerNames(input: string): ControllerNames {
  const problem = nameProblem(input);
  if (problem) throw CliErrors.invalidName(input, problem, VALID_NAME_HINT);
  const words = baseWords(input);
  const lower = words.map((word) => word.toLowerCase());
  const plural = [...lower.slice(0, -1), pluralize(lower.at(-1) ?? '')];
  return {
    className: `${words.map(capitalise).join('')}Controller`,
    fileName: lower.join('-'),
    path: plural.join('-'),
    variable: camelCase(lower),
    collection: camelCase(plural),
  };
}

// The name's words, without a trailing "Controller": `OrderItemController` and `order_item` are both
// [Order, Item] or [order, item].
function baseWords(input: string): string[] {
  const words = nameWords(input);
  return words.at(-1)?.toLowerCase() === 'controller' ? words.slice(0, -1) : words;
}

/** `word` with its first letter upper-case. @example capitalise('order') // 'Order' */
export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function camelCase(lowerWords: readonly string[]): string {
  return lowerWords.map((word, index) => (index === 0 ? word : capitalise(word))).join('');
}
