/**
 * The first value of the header `name` (lower case), read from Node's raw headers: `req.headers`
 * is built on its first read, and most requests would otherwise pay for it here alone.
 *
 * @example rawHeader(req.rawHeaders, 'x-request-id')
 */
export function rawHeader(rawHeaders: readonly string[], name: string): string | undefined {
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const candidate = rawHeaders[index] as string;
    // The length first: most names are ruled out without looking at their characters.
    if (candidate.length === name.length && isSameName(candidate, name)) return rawHeaders[index + 1];
  }
  return undefined;
}

/**
 * Every value of the header `name` (lower case) joined as Node's `req.headers` joins them (`, `; a
 * `Cookie` by `; `), or undefined when the request has none: read from the raw headers, as
 * {@link rawHeader} is.
 *
 * @example joinedRawHeader(req.rawHeaders, 'accept') // 'text/html, application/json'
 */
export function joinedRawHeader(rawHeaders: readonly string[], name: string): string | undefined {
  let joined: string | undefined;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const candidate = rawHeaders[index] as string;
    if (candidate.length !== name.length || !isSameName(candidate, name)) continue;
    const value = rawHeaders[index + 1] as string;
    joined = joined === undefined ? value : `${joined}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
  return joined;
}

// Whether `candidate` is `lowerName` in any case, compared in place: lowering its case would make a
// new string of every name clients send capitalised (`Content-Type`), several times a request.
function isSameName(candidate: string, lowerName: string): boolean {
  if (candidate === lowerName) return true;
  for (let index = 0; index < candidate.length; index += 1) {
    const code = candidate.charCodeAt(index);
    const lower = lowerName.charCodeAt(index);
    if (code !== lower && !(code >= UPPER_A && code <= UPPER_Z && code + CASE_OFFSET === lower)) return false;
  }
  return true;
}

const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
const CASE_OFFSET = 0x20;

/**
 * Whether a request carries a body, by the rule body parsers apply (type-is's `hasBody`): a
 * declared length, or a chunked body.
 *
 * @example hasBody(req.rawHeaders) // false for a plain GET
 */
export function hasBody(rawHeaders: readonly string[]): boolean {
  return (
    rawHeader(rawHeaders, 'content-length') !== undefined ||
    rawHeader(rawHeaders, 'transfer-encoding') !== undefined
  );
}

// A header name is an HTTP token; Node refuses anything else, but only at the first answer.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether `value` may name a header (an HTTP token). @example isHeaderName('X-Tenant') // true */
export function isHeaderName(value: unknown): value is string {
  return typeof value === 'string' && HEADER_NAME.test(value);
}
