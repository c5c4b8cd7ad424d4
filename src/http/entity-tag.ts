import type { IncomingMessage } from 'node:http';
import etag from 'etag';

/**
 * The weak validator of a body keel writes (the `etag` package's, as Express's): its length and a
 * hash of its bytes.
 *
 * @example
 * weakTag('{"id":1}'); // 'W/"8-..."'
 */
export function weakTag(body: string | Uint8Array): string {
  return etag(typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength), {
    weak: true,
  });
}

/**
 * Whether the request's `If-None-Match` names `tag` (or `*`), compared weakly as RFC 9110 asks of
 * GET and HEAD; a request that says `Cache-Control: no-cache` wants the whole answer.
 *
 * @example
 * if (isNotModified(req, tag)) sendEmpty(res, 304);
 */
export function isNotModified(req: IncomingMessage, tag: string): boolean {
  const condition = req.headers['if-none-match'];
  if (condition === undefined) return false;
  if (/(?:^|,)\s*no-cache\s*(?:,|$)/.test(req.headers['cache-control'] ?? '')) return false;
  const opaque = tag.slice(2);
  for (const candidate of condition.split(',')) {
    const trimmed = candidate.trim();
    if (trimmed === '*' || trimmed === tag || trimmed === opaque || trimmed === `W/${opaque}`) return true;
  }
  return false;
}
