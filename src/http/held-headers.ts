import http from 'node:http';
import type { RequestState } from './request-state';

const OBSERVED = Symbol('keel.headersObserved');
const HELD = Symbol('keel.heldHeaders');
const BEFORE_HEAD = Symbol('keel.beforeHead');
const ON_CLOSE = Symbol('keel.onClose');
const TELLS_CLOSE = Symbol('keel.tellsClose');

/**
 * Where a response being watched (request-watchers) keeps its request's state until its answer
 * closes. keel's own response class declares it, so that its responses keep one hidden class
 * whether watched or not.
 */
export const WATCHED = Symbol('keel.watchedRequest');

/** A header's value, as `setHeader` takes it. */
export type HeaderValue = string | number | readonly string[];

/** Headers by lower-case name, as `writeHead` takes them in one object. */
export type HeaderObject = http.OutgoingHttpHeaders;

type Observable = { [OBSERVED]?: true; [HELD]?: HeaderObject | null | undefined };

/**
 * Called as an answer's head is written, with the headers `writeHead` was given (undefined when it
 * was given none, or a list): the last moment to add a header that depends on the answer's type.
 */
export type HeadHook = (res: http.ServerResponse, headers: HeaderObject | undefined) => void;

/**
 * The response class of a keel server. The headers keel sets before its answer (`X-Request-Id`,
 * `ctx.header`) are held in a plain object and handed to `writeHead` with the answer's own, in one
 * call: `setHeader` validates and stores each header, and a response that has any makes
 * `writeHead` merge the rest one by one (measured here: a tenth of a small JSON answer's
 * throughput). Any other way out of the response (Node's implicit head, Express's helpers, a
 * stream) goes through `writeHead`, which sets what is still held first, unless the application set
 * that header itself since.
 *
 * @example
 * http.createServer({ ServerResponse: class extends HeaderHoldingResponse {} }, listener);
 */
export class HeaderHoldingResponse extends http.ServerResponse {
  // null: nothing held yet; undefined: holds nothing any more (its headers are observed).
  [HELD]: HeaderObject | null | undefined = null;
  // The request watchers' (access log, metrics): a property added to a response as it is watched
  // would give watched responses a hidden class of their own, and Node's code for every response two.
  [WATCHED]: RequestState | undefined = undefined;
  // Called once as it closes, where its class tells it (whenClosed): a field read as 'close' is
  // emitted, where a listener added per response cost about 600 instructions (counted by callgrind).
  [ON_CLOSE]: CloseListener | undefined = undefined;
  declare [BEFORE_HEAD]: HeadHook | undefined;
  declare [TELLS_CLOSE]: true | undefined;

  override writeHead(
    statusCode: number,
    reasonOrHeaders?: string | http.OutgoingHttpHeaders | http.OutgoingHttpHeader[],
    headers?: http.OutgoingHttpHeaders | http.OutgoingHttpHeader[],
  ): this {
    const held = this[HELD];
    if (held) {
      this[HELD] = null;
      setHeldHeaders(this, held);
    }
    const hook = this[BEFORE_HEAD];
    if (hook !== undefined)
      hook(this, headerObject(typeof reasonOrHeaders === 'object' ? reasonOrHeaders : headers));
    return super.writeHead(statusCode, reasonOrHeaders as string, headers);
  }
}

/** What {@link whenClosed} calls, with the response as `this`. */
export type CloseListener = (this: http.ServerResponse) => void;

/**
 * Makes each response of `responseClass` (one application's, where its requests are watched) call
 * the listener {@link whenClosed} gave it as it closes. Set only where requests are watched: an
 * `emit` of keel's own costs every emit of every response a call.
 *
 * @example tellWhenClosed(serverClasses.ServerResponse)
 */
export function tellWhenClosed(responseClass: typeof http.ServerResponse): void {
  const prototype = responseClass.prototype as Partial<HeaderHoldingResponse>;
  if (!(prototype instanceof HeaderHoldingResponse) || prototype[TELLS_CLOSE] === true) return;
  prototype[TELLS_CLOSE] = true;
  prototype.emit = emitTellingClose;
}

const emitOfNode = http.ServerResponse.prototype.emit;

function emitTellingClose(this: HeaderHoldingResponse, event: string | symbol, ...args: unknown[]): boolean {
  if (event === 'close') {
    const onClose = this[ON_CLOSE];
    if (onClose !== undefined) {
      this[ON_CLOSE] = undefined;
      onClose.call(this);
    }
  }
  return emitOfNode.call(this, event, ...args);
}

/**
 * Calls `listener` once as `res` closes: its answer finished, or its connection dropped. A response
 * whose class tells it ({@link tellWhenClosed}) keeps one such listener in a field of its own; any
 * other takes a 'close' listener.
 *
 * @example whenClosed(res, onClose)
 */
export function whenClosed(res: http.ServerResponse, listener: CloseListener): void {
  const told = res as Partial<HeaderHoldingResponse>;
  if (told[TELLS_CLOSE] === true && told[ON_CLOSE] === undefined) told[ON_CLOSE] = listener;
  else res.on('close', listener);
}

/**
 * Calls `hook` as each answer of a response class (one application's) writes its head.
 * @example beforeHead(serverClasses.ServerResponse, security.sealPage)
 */
export function beforeHead(responseClass: typeof http.ServerResponse, hook: HeadHook): void {
  (responseClass.prototype as HeaderHoldingResponse)[BEFORE_HEAD] = hook;
}

function headerObject(
  headers: http.OutgoingHttpHeaders | http.OutgoingHttpHeader[] | undefined,
): HeaderObject | undefined {
  return headers === undefined || Array.isArray(headers) ? undefined : (headers as HeaderObject);
}

/**
 * Holds every header of `headers` (names in lower case) at once, as {@link holdHeader} holds one.
 * @example holdHeaders(res, { 'x-frame-options': 'SAMEORIGIN' })
 */
export function holdHeaders(res: http.ServerResponse, headers: HeaderObject): void {
  const target = res as http.ServerResponse & Observable;
  const held = target[HELD];
  if (held === undefined)
    for (const name of Object.keys(headers)) res.setHeader(name, headers[name] as HeaderValue);
  else if (held === null) target[HELD] = { ...headers };
  else Object.assign(held, headers);
}

/**
 * Holds `headers`, an object made for this response alone, as the first headers it holds: kept as
 * it is, where {@link holdHeaders} would copy it (the dispatcher's first headers of every request).
 *
 * @example holdOwnHeaders(res, { ...everyAnswer, 'x-request-id': id })
 */
export function holdOwnHeaders(res: http.ServerResponse, headers: HeaderObject): void {
  const target = res as http.ServerResponse & Observable;
  if (target[HELD] === null) target[HELD] = headers;
  else holdHeaders(res, headers);
}

/**
 * Sets the response header `name` for keel's answer: held until that answer where the response
 * holds headers (see {@link HeaderHoldingResponse}), else set at once.
 *
 * @example holdHeader(res, 'Cache-Control', 'no-store')
 */
export function holdHeader(res: http.ServerResponse, name: string, value: HeaderValue): void {
  const target = res as http.ServerResponse & Observable;
  const held = target[HELD];
  if (held === undefined) res.setHeader(name, value);
  else if (held === null) target[HELD] = { [name.toLowerCase()]: value as http.OutgoingHttpHeader };
  else held[name.toLowerCase()] = value as http.OutgoingHttpHeader;
}

/**
 * Adds `value` to the header `name` (one more `Set-Cookie`), held as {@link holdHeader} holds one.
 *
 * @example appendHeader(res, 'Set-Cookie', 'theme=dark; Path=/')
 */
export function appendHeader(res: http.ServerResponse, name: string, value: string): void {
  const held = (res as http.ServerResponse & Observable)[HELD];
  if (held === undefined) {
    res.appendHeader(name, value);
    return;
  }
  const known = held?.[name.toLowerCase()];
  if (known === undefined) return holdHeader(res, name, value);
  holdHeader(res, name, [...(Array.isArray(known) ? (known as string[]) : [String(known)]), value]);
}

/**
 * The headers held for `res`, now handed over (the response holds none after), in an object the
 * answer may add its own to and give to `writeHead`; an empty object when none are held.
 *
 * @example
 * const headers = takeHeldHeaders(res);
 * headers['content-length'] = 0;
 * res.writeHead(204, headers);
 */
export function takeHeldHeaders(res: http.ServerResponse): HeaderObject {
  const target = res as http.ServerResponse & Observable;
  const held = target[HELD];
  if (!held) return {};
  target[HELD] = null;
  return held;
}

/**
 * Marks `res` as one whose headers someone else may read before or after it is sent: Express
 * middleware ran on it (a request logger reads `Content-Length` once the answer is out), the
 * handler took it over through `ctx.res`, or an error answer edits them. What keel held is set on
 * it now, and its direct answers from then on set their headers where `getHeader` finds them; every
 * other answer hands them to `writeHead` in one object, which Node writes without keeping them
 * (measured here: a fifth of a small JSON answer's throughput).
 *
 * @example
 * markHeadersObserved(res); // before running application middleware on it
 */
export function markHeadersObserved(res: http.ServerResponse): void {
  const target = res as http.ServerResponse & Observable;
  const held = target[HELD];
  target[OBSERVED] = true;
  if (held === undefined) return;
  target[HELD] = undefined;
  if (held) setHeldHeaders(res, held);
}

/**
 * Removes the headers `names` (lower case) from `res`'s answer, held or set.
 * @example removeHeaders(res, ['etag', 'content-type'])
 */
export function removeHeaders(res: http.ServerResponse, names: readonly string[]): void {
  const held = (res as Observable)[HELD];
  for (const name of names) {
    if (held && Object.hasOwn(held, name)) Reflect.deleteProperty(held, name);
    if (res.hasHeader(name)) res.removeHeader(name);
  }
}

/** Whether {@link markHeadersObserved} marked `res`. @example if (areHeadersObserved(res)) res.setHeader(...) */
export function areHeadersObserved(res: http.ServerResponse): boolean {
  return (res as Observable)[OBSERVED] === true;
}

// A header the application set itself after keel held its own keeps the application's value.
function setHeldHeaders(res: http.ServerResponse, held: HeaderObject): void {
  for (const name of Object.keys(held))
    if (!res.hasHeader(name)) res.setHeader(name, held[name] as HeaderValue);
}

/**
 * The value a response header will go out with: the one set on `res`, else the one keel holds for it.
 *
 * @example
 * if (answerHeader(res, 'content-type') === undefined) holdHeader(res, 'Content-Type', 'application/octet-stream');
 */
export function answerHeader(res: http.ServerResponse, name: string): http.OutgoingHttpHeader | undefined {
  const set = res.getHeader(name);
  if (set !== undefined) return set;
  const held = (res as Observable)[HELD];
  return held ? held[name.toLowerCase()] : undefined;
}
