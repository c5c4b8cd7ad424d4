import type { Request, Response } from 'express';
import type { ServerResponse } from 'node:http';
import type { Class } from '../container/token';
import type { AuthUser } from './auth-user';
import { HandlerErrors } from '../errors/handler-errors';
import { RoutingErrors } from '../errors/routing-errors';
import type { Logger } from '../logging/logger';
import { bindBody, type BindResult, type BindTarget } from './bind';
import type { SchemaOutput, StandardSchemaV1 } from '../binding/standard-schema';
import type { RouteInfo, RouteParams, RouteQuery } from './route-info';
import type { ErrorPages } from './error-pages';
import { holdHeader, markHeadersObserved } from './held-headers';
import { pageData } from './page-data';
import { joinedRawHeader } from './raw-headers';
import {
  readCookie,
  writeCookie,
  type CookieOptions,
  type CookieReadOptions,
  type CookieSettings,
} from './cookies';
import { requestQuery } from './request-query';
import { respondWithError, sendError } from './error-responder';
import { sendFile, type SendFileOptions } from './file-answer';
import type { Readable } from 'node:stream';
import { sendEmpty, sendHtml, sendJson } from './send';
import { streamEvents, type SseOptions } from './event-stream';
import type { OpenStreams } from './open-streams';
import type { AnswerSettings } from './answer-settings';
import { rawHeader } from './raw-headers';
import { uploadedFiles, type UploadedFile, type UploadLimits } from './uploads';
import type { ViewRenderer } from './views';

/** What a context reads and reports through: the request, the response, and keel's bookkeeping of them. */
export interface ContextTarget {
  readonly req: Request;
  readonly res: Response;
  /** Set when the handler reads `ctx.res`. */
  isTakenOver: boolean;
  /** What keel knows of the request: its id, its route. */
  readonly state: { readonly requestId: string; user?: AuthUser | undefined };
  readonly hasResponded: boolean;
}

/** A session's data, kept across the requests of one client (with `SessionModule`). */
export type SessionData = Record<string, unknown>;

/** What every context of one route shares, prepared once at boot. */
export interface RouteRuntime {
  /** The route; undefined for a request that matched none (what an `APP_FILTER` may see). */
  readonly route: RouteInfo | undefined;
  /** Fills in the paths of named routes. */
  readonly urlFor: (name: string, params?: RouteParams, query?: RouteQuery) => string;
  /** The application's `locals` (Express's `app.locals`), under every template's data. */
  readonly locals: object;
  /** Gives requests and responses Express's helpers, loading Express the first time. */
  readonly loadHelpers: () => void;
  /** The nonce of a page's Content-Security-Policy, held with it; undefined without security headers. */
  readonly pageNonce: (res: ServerResponse) => string | undefined;
  readonly views: ViewRenderer;
  readonly pages: ErrorPages;
  readonly logger: Logger;
  /** The route, as error messages name it: `OrderController.show (GET /orders/:id)`. */
  readonly description: string;
  /** The route's `SetMetadata` values, the method's over the class's. */
  readonly metadata: ReadonlyMap<unknown, unknown>;
  /** The application's open event streams, which a shutdown ends. */
  readonly streams: OpenStreams;
  /** Shapes what the route answers with: class instances through their class's rules, the rest as it is. */
  readonly shape: (value: unknown) => unknown;
  /** How answers' bodies are written: ETags, compression. */
  readonly answers: AnswerSettings;
  /** The keys cookies are signed with, and whether they are `Secure` by default. */
  readonly cookies: CookieSettings;
}

let construct: (exchange: ContextTarget, runtime: RouteRuntime) => Context;
let assignUser: (ctx: Context, user: AuthUser) => void;

/**
 * Records the user a request was authenticated as, for `ctx.user` and `currentRequest().user`.
 * @internal authentication's own step
 *
 * @example
 * authenticateAs(ctx, user);
 */
export function authenticateAs(ctx: Context, user: AuthUser): void {
  assignUser(ctx, user);
}

/**
 * Builds the context of one request: keel's own step, as a handler only ever receives one.
 * @internal the exchange calls it
 *
 * @example
 * this.ctx = createContext(this, runtime);
 */
export function createContext(exchange: ContextTarget, runtime: RouteRuntime): Context {
  return construct(exchange, runtime);
}

/**
 * The request context a handler receives: a dozen verbs to read input and write the response.
 * `ctx.req` and `ctx.res` are the Express objects; reading `ctx.res` means the handler answers
 * by itself, so keel no longer reports a handler that returns without responding.
 *
 * @example
 * show(ctx: Context) {
 *   const order = orders.get(ctx.param('id'));
 *   if (!order) return ctx.error(404, 'order not found');
 *   ctx.json(200, order);
 * }
 */
export class Context {
  readonly #exchange: ContextTarget;
  readonly #req: Request;
  readonly #res: Response;
  readonly #runtime: RouteRuntime;
  #query: unknown;

  // keel builds contexts (through createContext); a handler receives one.
  private constructor(exchange: ContextTarget, runtime: RouteRuntime) {
    this.#exchange = exchange;
    this.#req = exchange.req;
    this.#res = exchange.res;
    this.#runtime = runtime;
  }

  static {
    construct = (exchange, runtime) => new Context(exchange, runtime);
    assignUser = (ctx, user) => {
      ctx.#exchange.state.user = user;
    };
  }

  /** The Express request, for what the context does not cover (headers, `req.ip`, the raw body). */
  get req(): Request {
    this.#runtime.loadHelpers();
    return this.#req;
  }

  /** The Express response, for what the context does not cover (streams, cookies, headers). */
  get res(): Response {
    this.#runtime.loadHelpers();
    this.#exchange.isTakenOver = true;
    markHeadersObserved(this.#res);
    return this.#res;
  }

  /** The path parameter `name` (`:id` in the route), always a string. @example ctx.param('id') */
  param(name: string): string {
    const value = (this.#req.params as Record<string, string | string[] | undefined>)[name];
    if (value === undefined) throw RoutingErrors.unknownParam(this.#runtime.description, name);
    return Array.isArray(value) ? value.join('/') : value;
  }

  /** The query value `name`, the first when repeated, or `fallback` when absent. @example ctx.query('page', '1') */
  query(name: string): string | undefined;
  query(name: string, fallback: string): string;
  query(name: string, fallback?: string): string | undefined {
    // Express parses the query string at each read of `req.query`: once per request is enough.
    this.#query ??= requestQuery(this.#req);
    return firstString(this.#query, name) ?? fallback;
  }

  /** The posted form field `name` (urlencoded or multipart), or `fallback`. @example ctx.form('email', '') */
  form(name: string): string | undefined;
  form(name: string, fallback: string): string;
  form(name: string, fallback?: string): string | undefined {
    return firstString(this.#req.body, name) ?? fallback;
  }

  /**
   * The files posted in the multipart field `field`, in memory, typed: 413 past `maxBytes` (per file)
   * or `maxCount`, 415 when the request is no multipart form.
   * @example const photos = ctx.files('photos', { maxBytes: 5_000_000, maxCount: 4 })
   */
  files(field: string, limits?: UploadLimits): UploadedFile[] {
    return uploadedFiles(this.#req, field, limits);
  }

  /**
   * The one file posted in `field`, or undefined when none was: 413 past `maxBytes` or for a second
   * file, 415 when the request is no multipart form.
   * @example const photo = ctx.file('photo', { maxBytes: 2_000_000 })
   */
  file(field: string, limits: Omit<UploadLimits, 'maxCount'> = {}): UploadedFile | undefined {
    return uploadedFiles(this.#req, field, { ...limits, maxCount: 1 })[0];
  }

  /** Binds the JSON or form body into `type` and validates it. @example await ctx.bind(CreateOrder) */
  bind<T extends object>(type: Class<T>): Promise<BindResult<T>>;
  /** Validates the JSON or form body through a Standard Schema and gives its output. @example await ctx.bind(z.object({ sku: z.string() })) */
  bind<S extends StandardSchemaV1>(schema: S): Promise<BindResult<SchemaOutput<S>>>;
  bind(type: BindTarget<unknown>): Promise<BindResult<unknown>> {
    return Promise.resolve(bindBody(this.#req, type));
  }

  /**
   * The request header `name` (any case; repeated ones joined by `, `), or `fallback` when the
   * request has none. @example const tenant = ctx.requestHeader('x-tenant', 'public')
   */
  requestHeader(name: string): string | undefined;
  requestHeader(name: string, fallback: string): string;
  requestHeader(name: string, fallback?: string): string | undefined {
    return joinedRawHeader(this.#req.rawHeaders, name.toLowerCase()) ?? fallback;
  }

  /**
   * The request's cookie `name`, or undefined; `{ signed: true }` verifies its signature with the
   * application's cookie keys, and a tampered one reads as absent.
   * @example const cart = ctx.cookie('cart', { signed: true })
   */
  cookie(name: string, options: CookieReadOptions = {}): string | undefined {
    return readCookie(this.#req, name, options, this.#cookieParts());
  }

  /**
   * Sets the cookie `name` on the answer: `HttpOnly`, `SameSite=Lax`, `Path=/` and, in production,
   * `Secure` unless `options` say otherwise; `{ signed: true }` signs it.
   * @example ctx.setCookie('theme', 'dark', { maxAgeMs: 30 * 86_400_000 })
   */
  setCookie(name: string, value: string, options: CookieOptions = {}): void {
    if (this.#isWritable()) writeCookie(this.#res, { name, value, options }, this.#cookieParts());
  }

  /**
   * Tells the browser to drop the cookie `name`; give the `path` and `domain` it was set with.
   * @example ctx.clearCookie('theme')
   */
  clearCookie(
    name: string,
    options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'sameSite'> = {},
  ): void {
    if (!this.#isWritable()) return;
    const expired = { ...options, expires: new Date(0) };
    writeCookie(this.#res, { name, value: '', options: expired }, this.#cookieParts());
  }

  /** Sets the response header `name`; the handler still answers through the context. @example ctx.header('Cache-Control', 'no-store') */
  header(name: string, value: string | number | readonly string[]): void {
    if (this.#isWritable()) holdHeader(this.#res, name, value);
  }

  /** Sends `value` as JSON with `status`. @example ctx.json(201, order) */
  json(status: number, value: unknown): void {
    if (this.#isWritable()) sendJson(this.#res, status, this.#runtime.shape(value));
  }

  /** Answers 204 No Content: a write that has nothing to send back. @example ctx.noContent() */
  noContent(): void {
    if (this.#isWritable()) sendEmpty(this.#res, 204);
  }

  /**
   * Renders the template `name` from the views directory with `data` over `res.locals` over
   * `app.locals`, and the helpers `urlFor` and `flash` (with sessions, `csrfToken` and `csrfField()` too).
   * @example ctx.html(200, 'orders/show.html', { order })
   */
  html(status: number, name: string, data: object = {}): void {
    if (!this.#isWritable()) return;
    // The data is shaped as a JSON answer is: an excluded column never reaches a page either.
    const shaped = this.#runtime.shape(data) as object;
    sendHtml(this.#res, status, this.#runtime.views.render(name, pageData(this.#runtime, this.#res, shaped)));
  }

  /**
   * Sends a file: a path (read with `send`, relative to `root` when given, and never read when it
   * leaves it) or a stream. `Content-Disposition` says `attachment` (or `inline`) with `filename`
   * (default: the file's name), `Content-Type` comes from `type` or the name, and a path gets
   * `Last-Modified`, a weak `ETag`, byte ranges (206, 416) and conditional requests (304). A file
   * that is missing or outside `root` is answered 404 in the application's error shape. Resolves
   * once the answer is out; never rejects, so a handler may `return` it or leave it.
   *
   * @example
   * download(ctx: Context) { return ctx.sendFile(ctx.param('name'), { root: 'exports', filename: 'orders.csv' }); }
   */
  sendFile(file: string | Readable, options: SendFileOptions = {}): Promise<void> {
    if (!this.#isWritable()) return Promise.resolve();
    // The answer comes later: a handler that returns without awaiting it has answered all the same.
    this.#exchange.isTakenOver = true;
    const runtime = this.#runtime;
    return sendFile(this.#req, this.#res, file, options, runtime.answers.etag).catch((error: unknown) =>
      respondWithError(error, this.#req, this.#res, {
        logger: runtime.logger,
        pages: runtime.pages,
        describers: [],
      }),
    );
  }

  /**
   * Answers with a stream of Server-Sent Events (`text/event-stream`), one per item of `events`
   * (`{ data, event?, id?, retry? }`; data that is not a string goes out as JSON), with a comment line
   * every 15 s; the iterator's `return()` runs when the client leaves, and a graceful shutdown ends
   * the stream with a `retry` hint. `@Sse()` does the same with what a handler returns.
   * @example ctx.sse(this.orders.live())
   */
  sse(events: AsyncIterable<unknown> | Iterable<unknown>, options?: SseOptions): void {
    if (!this.#isWritable()) return;
    const runtime = this.#runtime;
    streamEvents(
      {
        req: this.#req,
        res: this.#res,
        streams: runtime.streams,
        logger: runtime.logger,
        description: runtime.description,
        serialize: runtime.shape,
      },
      events,
      options,
    );
  }

  /**
   * The id of the last event a reconnecting client saw (its `Last-Event-ID` header), to resume a
   * stream after it; undefined on a first connection. @example const after = Number(ctx.lastEventId ?? 0)
   */
  get lastEventId(): string | undefined {
    return rawHeader(this.#req.rawHeaders, 'last-event-id');
  }

  /**
   * The request's id: its valid incoming `X-Request-Id`, else a generated one; the answer carries
   * it, and so does every line logged while the request is served. @example ctx.requestId
   */
  get requestId(): string {
    return this.#exchange.state.requestId;
  }

  /**
   * The user `AuthModule` authenticated the request as; undefined on a `@Public()` route and
   * without `AuthModule`. @example ctx.user?.email
   */
  get user(): AuthUser | undefined {
    return this.#exchange.state.user;
  }

  /** The matched route: `{ name, method, path }`, such as `orders.show`. @example ctx.route?.name */
  get route(): RouteInfo | undefined {
    return this.#runtime.route;
  }

  /**
   * The path of the route named `name`, parameters percent-encoded, `query` appended; an unknown
   * name or a missing parameter throws an error naming it.
   * @example ctx.redirect(303, ctx.urlFor('orders.show', { id: order.id }))
   */
  urlFor(name: string, params?: RouteParams, query?: RouteQuery): string {
    return this.#runtime.urlFor(name, params, query);
  }

  /** The session's data, kept across requests (with `SessionModule`). @example ctx.session.cart = [] */
  get session(): SessionData {
    const { session } = this.#req as { session?: SessionData | null };
    if (!session) throw HandlerErrors.noSession(this.#runtime.description);
    return session;
  }

  /**
   * Leaves `message` for the next request of this session, whose templates see it as
   * `flash.<key>`, once. @example ctx.flash('success', `Order ${order.id} created`)
   */
  flash(key: string, message: string): void {
    const { session } = this;
    session.flash = { ...(session.flash as object | undefined), [key]: message };
  }

  /** Redirects to `location`; 303 See Other is the convention after a form post. @example ctx.redirect(303, '/orders/1') */
  redirect(status: number, location: string): void {
    if (!this.#isWritable()) return;
    this.#runtime.loadHelpers();
    this.#res.redirect(status, location);
  }

  /**
   * Sends `{"error": message}` with `status`, or the HTML error page for a request that prefers
   * HTML where `views/errors/` has one. @example ctx.error(404, 'order not found')
   */
  error(status: number, message: string): void {
    if (this.#isWritable()) sendError(this.#req, this.#res, { status, message }, this.#runtime.pages);
  }

  /**
   * The value `SetMetadata(key, value)` put on the route's method, else on its class; undefined
   * when neither has one. @example const roles = ctx.metadata('roles') as string[] | undefined
   */
  metadata<T = unknown>(key: unknown): T | undefined {
    return this.#runtime.metadata.get(key) as T | undefined;
  }

  #cookieParts(): { settings: CookieSettings; route: string } {
    return { settings: this.#runtime.cookies, route: this.#runtime.description };
  }

  // A second answer (or one after keel already sent a 500) must not throw: it would surface as an
  // unhandled rejection in the handler's own promise chain and bring the process down.
  #isWritable(): boolean {
    if (!this.#exchange.hasResponded) return true;
    this.#runtime.logger.error(
      { err: HandlerErrors.alreadyResponded(this.#runtime.description) },
      'response already sent',
    );
    return false;
  }
}

function firstString(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null || !Object.hasOwn(source, name)) return undefined;
  const value: unknown = (source as Record<string, unknown>)[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}
