/**
 * `next` when it is a path on this site, else `fallback`: a login form that redirected anywhere it
 * was told to would send a visitor, logged in, to a look-alike site.
 *
 * @example
 * pathToReturnTo('/orders/7/edit', '/orders'); // '/orders/7/edit'
 * pathToReturnTo('//evil.example', '/orders'); // '/orders'
 */
export function pathToReturnTo(next: string, fallback: string): string {
  return next.startsWith('/') && !next.startsWith('//') && !next.includes('\\') ? next : fallback;
}
