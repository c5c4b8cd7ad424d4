/**
 * The first value of the header `name` (lower case), read from Node's raw headers: `req.headers`
 * is built on its first read, and most requests would otherwise pay for it here alone.
 *
 * @example rawHeader(req.rawHeaders, 'x-request-id')
 */
export function rawHeader(rawHeaders: readonly string[], name: string): string | undefined {
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const candidate = rawHeaders[index] as string;
    // The length first: most names are ruled out without lowering their case.
    if (candidate.length === name.length && candidate.toLowerCase() === name) return rawHeaders[index + 1];
  }
  return undefined;
}

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
