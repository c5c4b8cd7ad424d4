import type Accepts from 'accepts';
import type Compressible from 'compressible';
import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import type Zlib from 'node:zlib';

/** A content coding keel compresses with. */
export type ContentCoding = 'br' | 'gzip';

// br first: of two codings a client accepts as much, the smaller answer wins.
const CODINGS = ['br', 'gzip', 'identity'];

// Compression is off by default: what it needs (mime-db's table above all) is loaded by the first
// answer that may be compressed, not at start-up, where it cost 14 ms.
let parts:
  | { accepts: typeof Accepts; compressible: typeof Compressible; zlib: typeof Zlib; brotli: object }
  | undefined;

function compressionParts(): NonNullable<typeof parts> {
  if (parts === undefined) {
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded with the first compressible answer */
    const zlib = require('node:zlib') as typeof Zlib;
    parts = {
      accepts: require('accepts') as typeof Accepts,
      compressible: require('compressible') as typeof Compressible,
      zlib,
      // Brotli's default quality (11) takes milliseconds per answer: 4 compresses about as well as gzip's 6, faster.
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
  }
  return parts;
}

/**
 * The coding for an answer of `type`: `br` or `gzip`, as the request's `Accept-Encoding` prefers
 * (q-values honoured, `identity` meaning none), or undefined when the client wants none or the type
 * is compressed already (images, archives: mime-db's `compressible`) or is an event stream.
 *
 * @example
 * chooseCoding(req, 'application/json; charset=utf-8'); // 'br' for `Accept-Encoding: br;q=1, gzip;q=0.5`
 */
export function chooseCoding(req: IncomingMessage, type: string): ContentCoding | undefined {
  if (!isCompressible(type)) return undefined;
  if (req.headers['accept-encoding'] === undefined) return undefined;
  const chosen = compressionParts().accepts(req).encodings(CODINGS);
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/** Whether an answer of `type` may be compressed for some client: it varies with `Accept-Encoding`. @example isCompressible('image/png') // false */
export function isCompressible(type: string): boolean {
  return !type.startsWith('text/event-stream') && compressionParts().compressible(type) === true;
}

/** `body` compressed with `coding`, at once (it is small: a JSON or HTML answer). @example compressBody('{"a":1}', 'gzip') */
export function compressBody(body: string | Uint8Array, coding: ContentCoding): Buffer {
  const { zlib, brotli } = compressionParts();
  return coding === 'br' ? zlib.brotliCompressSync(body, brotli) : zlib.gzipSync(body);
}

/** A stream that compresses what goes through it with `coding`. @example pipeline(source, compressing('gzip'), res) */
export function compressing(coding: ContentCoding): Transform {
  const { zlib, brotli } = compressionParts();
  return coding === 'br' ? zlib.createBrotliCompress(brotli) : zlib.createGzip();
}
