import type { ServerResponse } from 'node:http';

const OBSERVED = Symbol('keel.headersObserved');

type Observable = { [OBSERVED]?: true };

/**
 * Marks `res` as one whose headers someone else may read after it is sent: Express middleware ran
 * on it (a request logger reads `Content-Length` once the answer is out), or the handler took it
 * over through `ctx.res`. keel's direct answers then set their headers where `getHeader` finds
 * them; every other answer hands them to `writeHead` in one object, which Node writes without
 * keeping them (measured here: a fifth of a small JSON answer's throughput).
 *
 * @example
 * markHeadersObserved(res); // before running application middleware on it
 */
export function markHeadersObserved(res: object): void {
  (res as Observable)[OBSERVED] = true;
}

/** Whether {@link markHeadersObserved} marked `res`. @example if (areHeadersObserved(res)) res.setHeader(...) */
export function areHeadersObserved(res: ServerResponse): boolean {
  return (res as Observable)[OBSERVED] === true;
}
