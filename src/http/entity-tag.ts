import type { IncomingMessage } from 'node:http';
import { joinedRawHeader } from './raw-headers';

/**
 * Two 32-bit multiplicative hashes (FNV-1a's, and one with MurmurHash2's multiplier) of the body's
 * code units, or of its bytes (text beyond ASCII tags otherwise than its bytes would: each route sends
 * its body the same way every time): a weak validator only has to change when the body does, and a tag is
 * on every GET answer, where SHA-1 through node:crypto cost a plain route a tenth of its instructions.
 */
function hashOf(body: string | Uint8Array): string {
  let first = 0x811c9dc5;
  let second = 0x9747b28c;
  const isText = typeof body === 'string';
  for (let index = 0; index < body.length; index++) {
    const unit = isText ? body.charCodeAt(index) : (body[index] as number);
    first = Math.imul(first ^ unit, 0x01000193);
    second = Math.imul(second ^ unit, 0x5bd1e995);
    second ^= second >>> 15;
  }
  return hex(first) + hex(second);
}

/** The length of `body` in bytes, as it goes out. @example byteLengthOf('é') // 2 */
export function byteLengthOf(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

const hex = (word: number): string => (word >>> 0).toString(16).padStart(8, '0');

/**
 * The weak validator of a body keel writes: the length of its bytes in hexadecimal and a hash of
 * its content.
 *
 * @example
 * weakTag('{"id":1}'); // 'W/"8-…"'
 */
export function weakTag(body: string | Uint8Array, length = byteLengthOf(body)): string {
  return `W/"${length.toString(16)}-${hashOf(body)}"`;
}

/**
 * Whether the request's `If-None-Match` names `tag` (or `*`), compared weakly as RFC 9110 asks of
 * GET and HEAD; a request that says `Cache-Control: no-cache` wants the whole answer.
 *
 * @example
 * if (isNotModified(req, tag)) sendEmpty(res, 304);
 */
export function isNotModified(req: IncomingMessage, tag: string): boolean {
  // From the raw headers: `req.headers` is built on its first read, and a plain GET reads no other.
  const condition = joinedRawHeader(req.rawHeaders, 'if-none-match');
  if (condition === undefined) return false;
  if (/(?:^|,)\s*no-cache\s*(?:,|$)/.test(joinedRawHeader(req.rawHeaders, 'cache-control') ?? ''))
    return false;
  const opaque = tag.slice(2);
  for (const candidate of condition.split(',')) {
    const trimmed = candidate.trim();
    if (trimmed === '*' || trimmed === tag || trimmed === opaque || trimmed === `W/${opaque}`) return true;
  }
  return false;
}
