import { HttpError, type Context } from 'keel';

// Path and query values arrive as text. Anything that is not a plain positive whole number within
// PostgreSQL's integer range is "no such order" or "no such page": never a query that fails.
const POSITIVE_INTEGER = /^[1-9][0-9]{0,9}$/;
const MAX_INTEGER = 2_147_483_647;

/** `text` as a positive integer that fits the database's integer column, or undefined. */
export function positiveInteger(text: string): number | undefined {
  if (!POSITIVE_INTEGER.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_INTEGER ? value : undefined;
}

/** The `?page=` asked for (default 1); anything but a positive whole number is a 400. */
export function requestedPage(ctx: Context): number {
  return pageNumber(ctx.query('page', '1'));
}

/** `text`, a page asked for, as a number; anything but a positive whole number is a 400. */
function pageNumber(text: string): number {
  const page = positiveInteger(text);
  if (page === undefined) throw new HttpError(400, 'page must be a whole number from 1');
  return page;
}
