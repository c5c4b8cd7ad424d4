/**
 * Joins route path pieces with single slashes: `joinPath('/api/', 'orders', ':id')` → `/api/orders/:id`.
 */
export function joinPath(...parts: string[]): string {
  const segments = parts.flatMap((part) => part.split('/')).filter((segment) => segment !== '');
  return `/${segments.join('/')}`;
}

const enum SegmentKind {
  Static = 0,
  Param = 1,
  Wildcard = 2,
}

function segmentKind(segment: string): SegmentKind {
  if (segment.includes('*') || segment.includes('{')) return SegmentKind.Wildcard;
  if (segment.includes(':')) return SegmentKind.Param;
  return SegmentKind.Static;
}

/**
 * Orders two paths so that the more specific one is tried first: at the first segment where they
 * differ in kind, a static segment beats a parameter, which beats a wildcard; otherwise the shorter
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

/** The path with parameter names erased, so `/x/:id` and `/x/:key` are seen as the same route. */
export function routeShape(path: string): string {
  return path.replace(/:[A-Za-z_$][\w$]*/g, ':').toLowerCase();
}
