/**
 * Joins route path pieces with single slashes: `joinPath('/api/', 'orders', ':id')` → `/api/orders/:id`.
 */
export function joinPath(...parts: string[]): string {
  const segments = parts.flatMap((part) => part.split('/')).filter((segment) => segment !== '');
  return `/${segments.join('/')}`;
}

// A parameter (`:id`) or wildcard (`*rest`) and its name, plain or quoted (`:"id"`).
const NAMED_SEGMENT = /([:*])([A-Za-z_$][\w$]*|"(?:[^"\\]|\\.)*")/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// A trailing optional group holding one parameter: `/docs{/:page}`.
const TRAILING_OPTIONAL = /\{\/:([A-Za-z_$][\w$]*)\}$/;

/** The names of the parameters and wildcards `path` declares: `/x/:id/*rest` → id, rest. */
export function pathParameters(path: string): Set<string> {
  return new Set([...path.matchAll(NAMED_SEGMENT)].map(([, , name = '']) => unquote(name)));
}

/** The path with parameter and wildcard names erased, so `/x/:id` and `/x/:key` are the same route. */
export function routeShape(path: string): string {
  return path.replace(NAMED_SEGMENT, '$1').toLowerCase();
}

/** A route path in the route table's syntax, with the name its trailing wildcard had. */
export interface TablePath {
  readonly pattern: string;
  /** The name of a trailing `*name`, which the table reports under `*`. */
  readonly wildcard: string | undefined;
}

/**
 * Translates keel's path syntax (`:id`, `:"quoted"`, a trailing `*rest`, a trailing `{/:param}`) into
 * the route table's; returns the reason as a string for any other syntax.
 *
 * @example
 * toTablePath('/files/*rest'); // { pattern: '/files/*', wildcard: 'rest' }
 */
export function toTablePath(path: string): TablePath | string {
  let pattern = path.replace(TRAILING_OPTIONAL, '/:$1?');
  if (/[{}()\\]/.test(pattern)) {
    return 'optional groups are supported only as a trailing {/:param}, and patterns, parentheses and escapes not at all';
  }
  let wildcard: string | undefined;
  pattern = pattern.replace(NAMED_SEGMENT, (whole, kind: string, raw: string, offset: number) => {
    const name = unquote(raw);
    if (kind === ':') return IDENTIFIER.test(name) ? `:${name}` : whole;
    wildcard = name;
    return offset + whole.length === pattern.length ? '*' : whole;
  });
  if (/:"/.test(pattern)) return 'a quoted parameter name must be an identifier';
  if (/\*./.test(pattern)) return 'a wildcard must end the path';
  return { pattern, wildcard };
}

function unquote(name: string): string {
  return name.replace(/^"|"$/g, '');
}
