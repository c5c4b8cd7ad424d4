import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { types } from 'node:util';
import { answerHeader, holdHeader, takeHeldHeaders } from './held-headers';
import { OCTET_STREAM } from './send';

/** A body a handler may return besides a JSON value: bytes, or a stream of them. */
export type StreamBody = Readable | WebReadableStream;

/**
 * Whether `value` is bytes (a `Buffer` or another `Uint8Array`), from any realm.
 *
 * @example
 * isBytes(Buffer.from('x')); // true
 */
export function isBytes(value: unknown): value is Uint8Array {
  return types.isUint8Array(value);
}

/**
 * Whether `value` is a Node `Readable` or a web `ReadableStream`, told by shape, so that a stream
 * made by another copy of a library (or another realm) is streamed too.
 *
 * @example
 * isStreamBody(fs.createReadStream('orders.csv')); // true
 */
export function isStreamBody(value: unknown): value is StreamBody {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { pipe?: unknown; on?: unknown; getReader?: unknown; pipeTo?: unknown };
  const isNode = typeof candidate.pipe === 'function' && typeof candidate.on === 'function';
  const isWeb = typeof candidate.getReader === 'function' && typeof candidate.pipeTo === 'function';
  return isNode || isWeb;
}

/**
 * Streams `source` as the answer with backpressure (`stream.pipeline`): `application/octet-stream`
 * unless a `Content-Type` was set, no `Content-Length` (chunked). The head goes out first, so a
 * source that fails part way rejects with its error after the answer started (the dispatcher logs
 * it and cuts the connection, the only signal left). A client that leaves destroys the source (a
 * web stream is cancelled): the end of the answer, not an error. A HEAD request gets the headers,
 * and the source is destroyed unread.
 *
 * @example
 * await streamBody(res, 200, fs.createReadStream('orders.csv'));
 */
export async function streamBody(res: ServerResponse, status: number, source: StreamBody): Promise<void> {
  const readable = isWebStream(source) ? Readable.fromWeb(source) : source;
  if (answerHeader(res, 'content-type') === undefined) holdHeader(res, 'Content-Type', OCTET_STREAM);
  res.writeHead(status, takeHeldHeaders(res));
  if (res.req?.method === 'HEAD') {
    readable.destroy();
    res.end();
    return;
  }
  try {
    await pipeline(readable, res);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw error;
  }
}

function isWebStream(source: StreamBody): source is WebReadableStream {
  return typeof (source as { getReader?: unknown }).getReader === 'function';
}
