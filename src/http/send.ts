import type { ServerResponse } from 'node:http';
import type { AnswerSettings } from './answer-settings';
import { chooseCoding, compressBody, isCompressible } from './compression';
import { byteLengthOf, isNotModified, weakTag } from './entity-tag';
import { answerHeader, areHeadersObserved, holdHeader, takeHeldHeaders } from './held-headers';

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
/** The type of bytes whose type nobody said. */
export const OCTET_STREAM = 'application/octet-stream';
// Statuses whose answers carry no body (Node drops it; the headers must not describe one).
const BODILESS = new Set([204, 304]);

/**
 * Writes `value` as a JSON answer straight to the response: status, `Content-Type`,
 * `Content-Length`, body (none for HEAD, 204 and 304, as HTTP requires).
 *
 * @example
 * sendJson(res, 200, { status: 'ok' });
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  answers?: AnswerSettings,
): void {
  // JSON.stringify gives undefined for undefined and functions: an empty body, as Express sends.
  sendText(res, status, JSON_TYPE, JSON.stringify(value) ?? '', answers);
}

/** Writes an HTML page straight to the response. @example sendHtml(res, 200, '<p>hi</p>') */
export function sendHtml(res: ServerResponse, status: number, page: string, answers?: AnswerSettings): void {
  sendText(res, status, HTML_TYPE, page, answers);
}

/** Ends the response with `status` and no body. @example sendEmpty(res, 204) */
export function sendEmpty(res: ServerResponse, status: number): void {
  if (areHeadersObserved(res)) {
    res.statusCode = status;
    if (!BODILESS.has(status)) res.setHeader('Content-Length', 0);
  } else {
    const headers = takeHeldHeaders(res);
    if (!BODILESS.has(status)) headers['content-length'] = '0';
    res.writeHead(status, headers);
  }
  res.end();
}

/**
 * Writes bytes a handler returned (a `Buffer`, a `Uint8Array`): `application/octet-stream` unless
 * the handler set a `Content-Type` itself.
 *
 * @example
 * sendBytes(res, 200, Buffer.from([1, 2, 3]));
 */
export function sendBytes(
  res: ServerResponse,
  status: number,
  body: Uint8Array,
  answers?: AnswerSettings,
): void {
  const type = answerHeader(res, 'content-type');
  sendText(res, status, typeof type === 'string' ? type : OCTET_STREAM, body, answers);
}

/**
 * Writes a body of any type (Prometheus's text format) straight to the response. With `answers`
 * (the application's options): a 200 answer to GET or HEAD carries a weak `ETag` (`etag`), and is
 * a bodiless 304 when the request's `If-None-Match` names it; a body of a compressible type from
 * the threshold up goes out as `br` or `gzip` when the client accepts one (`compression`).
 *
 * @example sendText(res, 200, 'text/plain; version=0.0.4; charset=utf-8', text)
 */
export function sendText(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Uint8Array,
  answers?: AnswerSettings,
): void {
  if (BODILESS.has(status)) return sendEmpty(res, status);
  const method = res.req?.method;
  const isHead = method === 'HEAD';
  const bodyLength = byteLengthOf(body);
  const tag =
    answers?.etag === true && status === 200 && (method === 'GET' || isHead)
      ? entityTag(res, body)
      : undefined;
  if (tag !== undefined && isNotModified(res.req, tag)) {
    holdHeader(res, 'ETag', tag);
    return sendEmpty(res, 304);
  }
  let payload = body;
  let length = bodyLength;
  const threshold = answers?.compressionThreshold;
  if (threshold !== undefined && isCompressible(type) && bodyLength >= threshold) {
    holdHeader(res, 'Vary', 'Accept-Encoding');
    const coding = isHead ? undefined : chooseCoding(res.req, type);
    if (coding !== undefined) {
      payload = compressBody(body, coding);
      length = byteLengthOf(payload);
      holdHeader(res, 'Content-Encoding', coding);
    }
  }
  if (areHeadersObserved(res)) {
    res.statusCode = status;
    if (tag !== undefined) res.setHeader('ETag', tag);
    res.setHeader('Content-Type', type);
    // A number, as Express sets it: middleware reads it back once the answer is out.
    res.setHeader('Content-Length', length);
  } else {
    // Headers set earlier still go out: writeHead merges them, these winning.
    const headers = takeHeldHeaders(res);
    if (tag !== undefined) headers.etag = tag;
    headers['content-type'] = type;
    // A string, as every other value: a number makes Node's check of header values take V8's
    // generic path for every header of the answer (about 1,200 instructions in all).
    headers['content-length'] = `${length}`;
    res.writeHead(status, headers);
  }
  // Node's own responses drop a HEAD answer's body; a response from elsewhere (an in-process
  // request) may not, so it is never handed one.
  res.end(isHead ? undefined : payload);
}

// The answer's validator: the one the handler set itself (a version it knows), else keel's weak tag.
function entityTag(res: ServerResponse, body: string | Uint8Array): string {
  const own = answerHeader(res, 'etag');
  return typeof own === 'string' ? own : weakTag(body);
}
