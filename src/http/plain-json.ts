import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import { rawHeader } from './raw-headers';

// The Content-Type values most clients send for JSON, in lower case: only these take the plain way.
const PLAIN_JSON_TYPES = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
]);

// body-parser's strict rule: after JSON's whitespace, the body opens an object or an array.
// eslint-disable-next-line no-control-regex -- JSON's whitespace is tab, line feed and carriage return
const FIRST_NON_WHITESPACE = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d]|$)/;
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Whether `req` declares a plain JSON body: `application/json` in UTF-8, no Content-Encoding. The
 * body stage takes such a request for JSON without asking type-is.
 *
 * @example isPlainJson(req) // true for `Content-Type: application/json`
 */
export function isPlainJson(req: IncomingMessage): boolean {
  const type = rawHeader(req.rawHeaders, 'content-type');
  return type !== undefined && PLAIN_JSON_TYPES.has(type.toLowerCase()) && isIdentityEncoded(req);
}

/**
 * body-parser's JSON parser, taking the plain case on a short way: a UTF-8 JSON body with a declared
 * length within `limitBytes` and no Content-Encoding is read into one buffer and parsed by
 * body-parser's rules (an empty body is `{}`; strict: an object or an array; a leading byte order
 * mark dropped) and fails with its error types, which the responder answers as before. Any other
 * body (chunked, compressed, another charset, declared over the limit) goes to `parser`, which
 * reads it through its streams, decoders and limits.
 *
 * @example
 * const json = withPlainJson(bodyParser.json({ limit }), limit);
 */
export function withPlainJson(parser: RequestHandler, limitBytes: number): RequestHandler {
  return (req, res, next) => {
    // A body that raw Express middleware has read already is body-parser's to skip.
    const declared = req.readable && isPlainJson(req) ? declaredLength(req) : undefined;
    if (declared === undefined || declared > limitBytes) {
      parser(req, res, next);
      return;
    }
    readBody(req, (error, body) => {
      if (error !== undefined) return next(error);
      let parsed: unknown;
      try {
        parsed = parseStrictJson(body as Buffer);
      } catch (parseError) {
        return next(bodyError(400, (parseError as Error).message, 'entity.parse.failed'));
      }
      req.body = parsed;
      next();
    });
  };
}

function isIdentityEncoded(req: IncomingMessage): boolean {
  const encoding = rawHeader(req.rawHeaders, 'content-encoding');
  return encoding === undefined || encoding.toLowerCase() === 'identity';
}

function declaredLength(req: IncomingMessage): number | undefined {
  const declared = rawHeader(req.rawHeaders, 'content-length');
  // Node has checked the value; a chunked body (none declared) keeps body-parser's running limit.
  return declared === undefined ? undefined : Number(declared);
}

// Node's parser delivers no more than the declared length, and fails the request that ends short.
// `on`, not `once`, with a flag of its own. Measured: once a process has served a database route
// under load for a while, V8 may allocate `once`'s wrapper and the listener it wraps straight in the
// old generation (it pretenures them), where they hold the request, its response and its body
// through every scavenge until the next full collection; a POST route then spent a fifth of its
// time collecting garbage and served a third fewer requests, in about half of such runs; with
// plain listeners, in none.
function readBody(req: IncomingMessage, done: (error: Error | undefined, body?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let isSettled = false;
  const settle = (error: Error | undefined, body?: Buffer): void => {
    if (isSettled) return;
    isSettled = true;
    done(error, body);
  };
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => settle(undefined, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
  req.on('error', () => settle(bodyError(400, 'request aborted', 'request.aborted')));
}

function parseStrictJson(bytes: Buffer): unknown {
  let text = bytes.toString('utf8');
  if (text.startsWith(BYTE_ORDER_MARK)) text = text.slice(1);
  if (text.length === 0) return {};
  const first = (FIRST_NON_WHITESPACE.exec(text) as RegExpExecArray)[1];
  if (first !== '{' && first !== '[') throw new SyntaxError(`Unexpected token ${first || 'end'} in JSON`);
  return JSON.parse(text);
}

// body-parser's errors carry a status and a `type`; the responder and users' filters read both.
function bodyError(status: number, message: string, type: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, type });
}
