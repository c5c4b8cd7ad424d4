/**
 * Joins route path pieces with single slashes: `joinPath('/api/', 'orders', ':id')` → `/api/orders/:id`.
 */
export function joinPath(...parts: string[]): string {
  const segments = parts.flatMap((part) => part.split('/')).filter((segment) => segment !== '');
  return `/${segments.join('/')}`;
}

const enum SegmentKind {
  Static = 0,
  /** A static prefix, then a parameter or an optional group: `file-:id`, `docs{`. */
  StaticPrefix = 1,
  Param = 2,
  Wildcard = 3,
}

function segmentKind(segment: string): SegmentKind {
  if (segment.includes('*')) return SegmentKind.Wildcard;
  const special = segment.search(/[:{]/);
  if (special < 0) return SegmentKind.Static;
  return special === 0 ? SegmentKind.Param : SegmentKind.StaticPrefix;
}

/**
 * Orders two paths so that the more specific one is tried first: at the first segment where they
 * differ in kind, a static segment beats one with a static prefix, which beats a parameter, which
 * beats a wildcard; otherwise the shorter
 * path comes first. Paths of the same shape compare equal, so a stable sort keeps their declared order.
 */
export function compareSpecificity(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = segmentKind(left[i] ?? '') - segmentKind(right[i] ?? '');
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

// A parameter (`:id`) or wildcard (`*rest`) and its name, plain or quoted (`:"id"`).
const NAMED_SEGMENT = /([:*])([A-Za-z_$][\w$]*|"(?:[^"\\]|\\.)*")/g;

/** The names of the parameters and wildcards `path` declares: `/x/:id/*rest` → id, rest. */
export function pathParameters(path: string): Set<string> {
  return new Set([...path.matchAll(NAMED_SEGMENT)].map(([, , name = '']) => name.replace(/^"|"$/g, '')));
}

/** The path with parameter and wildcard names erased, so `/x/:id` and `/x/:key` are the same route. */
export function routeShape(path: string): string {
  return path.replace(NAMED_SEGMENT, '$1').toLowerCase();
}
