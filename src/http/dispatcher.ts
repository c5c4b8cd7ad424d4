import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logging/logger';
import type { RouteRuntime } from './context';
import type { CorsRules } from './cors-rules';
import type { SecurityHeaders } from './security-headers';
import type { Endpoint, ErrorCatcher, PathParams } from './endpoint';
import type { ErrorPages } from './error-pages';
import { malformedPath, respondWithError, type ErrorDescriber } from './error-responder';
import { Exchange } from './exchange';
import type { ExpressObjects } from './express-objects';
import { HttpError } from '../errors/http-error';
import { RequestErrors } from '../errors/request-errors';
import { runErrorMiddleware, runMiddleware } from './middleware';
import { holdOwnHeaders, markHeadersObserved, tellWhenClosed, type HeaderObject } from './held-headers';
import { hasBody, rawHeader } from './raw-headers';
import { requestIdFrom } from './request-id';
import { RequestState, requestScope } from './request-state';
import type { RequestTracing, ScopeEntry } from './request-tracing';
import { isThenable } from './thenable';
import { watching, type RequestWatcher, type StartWatching } from './request-watchers';

/** A lookup's outcome: the endpoint and its parameters, a path that cannot be decoded, or nothing. */
export type RouteMatch =
  | { readonly endpoint: Endpoint; readonly params: PathParams }
  | { readonly endpoint: undefined; readonly malformed: true };

/** What the dispatcher asks of the router: the route of a request, and the methods a path has. */
export interface RouteLookup {
  find(method: string, url: string, version?: string): RouteMatch | undefined;
  allowedMethods(url: string, version?: string): string[];
}

/** What the dispatcher is built from, once, at boot. */
export interface DispatcherParts {
  readonly router: RouteLookup;
  /** Express's helpers for requests, and phase 1: its app, run only once handed out (`app.express`). */
  readonly objects: ExpressObjects;
  /** Phase 2: body parsing and `_method`, run for requests that carry a body (`hasBody`). */
  readonly bodyStage: RequestHandler;
  /** Phase 3, and the error middleware: what `app.use` was given, in order; both lists may grow. */
  readonly middleware: readonly RequestHandler[];
  readonly errorMiddleware: readonly ErrorRequestHandler[];
  /** Errors outside any route (phases 3 and 4) go to the `APP_FILTER`s, with a context of this runtime. */
  readonly catchUnrouted: ErrorCatcher | undefined;
  readonly runtime: RouteRuntime;
  readonly logger: Logger;
  readonly pages: ErrorPages;
  readonly describers: readonly ErrorDescriber[];
  /** The header the request id is read from and answered in; undefined: neither. */
  readonly requestIdHeader: string | undefined;
  /** Whether each step runs in the request scope `currentRequest()` reads; tracing's `enter` does so anyway. */
  readonly isRequestScoped: boolean;
  /** Told of each request as it arrives and as its answer closes (the access log, metrics); undefined costs nothing. */
  readonly watch: RequestWatcher | undefined;
  /** Asked first of all whether the request is refused (load shedding); undefined costs nothing. */
  readonly refuse?: RequestRefusal | undefined;
  /** A span per request, where a tracer provider is registered; undefined costs nothing. */
  readonly tracing: RequestTracing | undefined;
  /** The CORS policies: preflights are answered, and other requests' headers held, before any phase. */
  readonly cors: CorsRules;
  /** helmet's headers, held for every answer; undefined: none. */
  readonly security: SecurityHeaders | undefined;
  /** The API version a request asks for (header or media versioning); undefined: routes have none to pick. */
  readonly versionOf: ((req: IncomingMessage) => string | undefined) | undefined;
}

/**
 * Answers a request before any phase when it must be turned away (load shedding), and says so: such a
 * request has its body neither read nor parsed.
 */
export type RequestRefusal = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Where an error is answered first: the filters that may catch it and the exchange they see; none
 * for phases 1 and 2, the `APP_FILTER`s for 3 and 4, the route's own then the global ones after.
 */
interface ErrorScope {
  readonly catchError: ErrorCatcher | undefined;
  readonly exchange: () => Exchange;
  /** The route, as a message about a thrown non-Error names it. */
  readonly description: string;
}

/**
 * keel's request listener: every request runs the phases of the pipeline in order (raw Express
 * middleware, body, application middleware, routing, then the route's endpoint), each skipped when
 * it has nothing to do. Phases answer, or fail with an error (a 404 and a 405 are thrown
 * `HttpError`s too); every error takes one path, in one place: the filters, then the
 * error middleware given to `app.use`, then keel's responder. No Express router is walked for keel's
 * own routes.
 *
 * @example
 * http.createServer(objects.serverClasses, dispatcher.handle);
 */
export class Dispatcher {
  readonly #parts: DispatcherParts;
  // Node's raw header names keep the client's case: compared in lower case.
  readonly #idHeader: string | undefined;
  // How each step enters the request's scope: with tracing, its trace context too.
  readonly #enter: ScopeEntry;
  readonly #startWatching: StartWatching | undefined;
  // A server's requests enter the scope by `enterWith` (see handleOnServer): scoped, and no tracing,
  // whose entry also makes the span's context the active one.
  readonly #entersForCallback: boolean;
  // The headers every answer carries (the security headers, the request id's under its name with a
  // blank value): copied per request in one step (an object of one shape, which V8 clones whole),
  // its id written in, and held as they are.
  readonly #everyAnswer: Readonly<HeaderObject> | undefined;

  constructor(parts: DispatcherParts) {
    this.#parts = parts;
    this.#idHeader = parts.requestIdHeader?.toLowerCase();
    const idHeader = this.#idHeader === undefined ? {} : { [this.#idHeader]: '' };
    this.#everyAnswer =
      this.#idHeader === undefined && parts.security === undefined
        ? undefined
        : { ...parts.security?.everyAnswer, ...idHeader };
    this.#enter =
      parts.tracing?.enter ?? (parts.isRequestScoped ? requestScope.run.bind(requestScope) : runUnscoped);
    this.#startWatching = parts.watch === undefined ? undefined : watching(parts.watch);
    // Watched answers are told as they close by keel's response class, not by a listener each.
    if (parts.watch !== undefined) tellWhenClosed(parts.objects.serverClasses.ServerResponse);
    this.#entersForCallback = parts.isRequestScoped && parts.tracing === undefined;
  }

  /**
   * Answers one request, whoever calls it (an in-process request, a server keel did not make):
   * the request's scope is entered around the call. @example inject(dispatcher.handle, '/health')
   */
  readonly handle = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const state = this.#begin(incoming, outgoing);
    this.#enter(state, this.#serve, incoming as Request, outgoing as Response, state);
  };

  /**
   * Answers one request of a server's own `'request'` (or `'upgrade'`) event. Node calls it from
   * a callback whose scope it restores when the callback returns, so the request's scope is simply
   * entered for the rest of that callback: around the call (`run`) it would cost a second
   * AsyncContextFrame to restore the first, a Map of each, about 900 instructions a request.
   *
   * @example server.on('request', dispatcher.handleOnServer)
   */
  readonly handleOnServer = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const state = this.#begin(incoming, outgoing);
    if (this.#entersForCallback) {
      requestScope.enterWith(state);
      this.#serve(incoming as Request, outgoing as Response, state);
    } else this.#enter(state, this.#serve, incoming as Request, outgoing as Response, state);
  };

  // What every request starts with: its state, the headers every answer carries, its span and watchers.
  #begin(incoming: IncomingMessage, outgoing: ServerResponse): RequestState {
    const { tracing } = this.#parts;
    const startWatching = this.#startWatching;
    const idHeader = this.#idHeader;
    const state = new RequestState(
      requestIdFrom(idHeader === undefined ? undefined : rawHeader(incoming.rawHeaders, idHeader)),
    );
    const everyAnswer = this.#everyAnswer;
    if (everyAnswer !== undefined) {
      // Not `{ ...everyAnswer }`: with that clone, a server that had been through a full
      // collection promoted about 900 bytes a request to the old generation, against under 100
      // with Object.assign into a new literal (test/lifecycle/young-garbage.test.ts): V8's spread
      // clone can be pretenured, and an old object holding a request's values keeps them alive.
      const headers: HeaderObject = Object.assign({}, everyAnswer);
      if (idHeader !== undefined) headers[idHeader] = state.requestId;
      holdOwnHeaders(outgoing, headers);
    }
    if (tracing !== undefined) tracing.open(state, incoming, outgoing);
    if (startWatching !== undefined) startWatching(state, incoming, outgoing);
    return state;
  }

  // Every step of the request runs in its scope; a step that resumes from a stream's events (a
  // parsed body, middleware that read one) is put back in it, as those events belong to the
  // connection, not to the request.
  readonly #serve = (req: Request, res: Response, state: RequestState): void => {
    const { objects, refuse, cors, security } = this.#parts;
    if (refuse !== undefined && refuse(req, res)) return;
    if (cors.isOn && cors.answer(req, res, this.#parts)) return;
    objects.equip(req, res);
    if (security !== undefined) security.holdTransportSecurity(req, res, objects.loadHelpers);
    if (!objects.isHandedOut) return this.#parseBody(req, res, state);
    markHeadersObserved(res);
    const app = objects.load();
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    // Its router, not the app: the app would also set each request's prototype to its own, which
    // keel's objects have already and an in-process request's would lose its class's methods to.
    // The router calls `next` when nothing answered.
    app.router(req, res, ((error?: unknown) => {
      if (error) this.#enter(state, this.#fail, error, req, res);
      else this.#enter(state, this.#parseBody, req, res, state);
    }) as NextFunction);
  };

  // The one way every failed request takes: the filters of `scope` (none before phase 3), then the
  // Express error middleware given to `app.use`, then keel's responder. A filter that throws hands
  // on its own error instead. The request context, metrics and traces of a failure hang here.
  readonly #fail = (thrown: unknown, req: Request, res: Response, scope?: ErrorScope): void => {
    this.#parts.tracing?.fail(thrown);
    if (scope === undefined) return this.#respond(thrown, req, res);
    const error = asError(thrown, scope.description);
    const { catchError } = scope;
    if (catchError === undefined) return this.#respond(error, req, res);
    let answered: boolean | Promise<boolean>;
    try {
      answered = catchError(error, scope.exchange());
    } catch (filterError) {
      return this.#respond(filterError, req, res);
    }
    if (!isThenable(answered)) {
      if (!answered) this.#respond(error, req, res);
      return;
    }
    answered.then(
      (isAnswered) => isAnswered || this.#respond(error, req, res),
      (filterError: unknown) => this.#respond(filterError, req, res),
    );
  };

  #respond(error: unknown, req: Request, res: Response): void {
    const { errorMiddleware } = this.#parts;
    if (errorMiddleware.length === 0) return respondWithError(error, req, res, this.#parts);
    runErrorMiddleware(errorMiddleware, error, req, res, (unanswered) => {
      respondWithError(unanswered, req, res, this.#parts);
    });
  }

  // Errors of application middleware and routing go to the `APP_FILTER`s first.
  #unrouted(req: Request, res: Response, state: RequestState): ErrorScope {
    const { catchUnrouted: catchError, runtime } = this.#parts;
    return {
      catchError,
      exchange: () => new Exchange(req, res, runtime, state),
      description: runtime.description,
    };
  }

  // A request without a body goes straight on, in the step it is in: no callback to make and no
  // scope to enter again, for most requests.
  readonly #parseBody = (req: Request, res: Response, state: RequestState): void => {
    if (!hasBody(req.rawHeaders)) return this.#runMiddleware(req, res, state);
    this.#parts.bodyStage(req, res, (error?: unknown) => {
      if (error) this.#enter(state, this.#fail, error, req, res);
      else this.#enter(state, this.#runMiddleware, req, res, state);
    });
  };

  readonly #runMiddleware = (req: Request, res: Response, state: RequestState): void => {
    const { middleware } = this.#parts;
    if (middleware.length === 0) return this.#route(req, res, state);
    runMiddleware(middleware, req, res, (error) => {
      if (error) this.#enter(state, this.#fail, error, req, res, this.#unrouted(req, res, state));
      else this.#enter(state, this.#route, req, res, state);
    });
  };

  // Routing and the route's endpoint, under the one try/catch: a sync throw is caught here, an
  // async one by the `.catch` of the promise the endpoint returns. A request that answers pays
  // for no error scope.
  readonly #route = (req: Request, res: Response, state: RequestState): void => {
    let endpoint: Endpoint | undefined;
    let exchange: Exchange | undefined;
    try {
      const match = this.#match(req, res, state);
      if (match === undefined) return;
      if (match instanceof HttpError) return this.#fail(match, req, res, this.#unrouted(req, res, state));
      endpoint = match.endpoint;
      exchange = endpoint.open(req, res, match.params, state);
      const running = endpoint.run(exchange);
      if (running === undefined) return;
      const opened = { endpoint, exchange };
      running.catch((error: unknown) => this.#fail(error, req, res, routeScope(opened)));
    } catch (error) {
      const scope =
        endpoint && exchange ? routeScope({ endpoint, exchange }) : this.#unrouted(req, res, state);
      this.#fail(error, req, res, scope);
    }
  };

  // The route's endpoint; a path with none gives the 404, or the 405 with `Allow`, to answer with,
  // rather than throwing it: V8 works out the source position of every throw (the message a throw
  // nobody catches would print), a tenth of a 404's cost. An OPTIONS there is answered 204 (through
  // the middleware of the route it asks about) and gives undefined.
  #match(req: Request, res: Response, state: RequestState) {
    const { router, versionOf } = this.#parts;
    const { method, url } = req as { method: string; url: string };
    const version = versionOf === undefined ? undefined : versionOf(req);
    const match =
      router.find(method, url, version) ?? (method === 'HEAD' ? router.find('GET', url, version) : undefined);
    if (match?.endpoint) return match;
    if (match) return malformedPath();
    const allowed = router.allowedMethods(url, version);
    const path = url.split('?', 1)[0] ?? url;
    if (allowed.length === 0) return RequestErrors.routeNotFound(method, path);
    res.setHeader('Allow', allowed.join(', '));
    if (method !== 'OPTIONS') return RequestErrors.methodNotAllowed(method, path);
    this.#answerPreflight(req, res, { url, allowed, state, version });
    return undefined;
  }

  // A preflight goes through the middleware of the route it asks about (CORS on one controller
  // answers it there); unanswered, it is 204 with `Allow`.
  #answerPreflight(
    req: Request,
    res: Response,
    {
      url,
      allowed,
      state,
      version,
    }: { url: string; allowed: readonly string[]; state: RequestState; version: string | undefined },
  ): void {
    const asked = req.headers['access-control-request-method'];
    const method = typeof asked === 'string' && allowed.includes(asked) ? asked : allowed[0];
    const match = method === undefined ? undefined : this.#parts.router.find(method, url, version);
    const answer = (): void => {
      if (res.headersSent || res.writableEnded) return;
      res.statusCode = 204;
      res.end();
    };
    const runMiddleware = match?.endpoint?.runMiddleware;
    if (!runMiddleware) return answer();
    runMiddleware(req, res, (error) => {
      if (error) this.#enter(state, this.#fail, error, req, res, this.#unrouted(req, res, state));
      else answer();
    });
  }
}

// Without the request scope a step is simply called.
const runUnscoped: ScopeEntry = (_state, step, ...args) => step(...args);

// An error of a route goes to its own filters, then the global ones, with its context.
function routeScope({ endpoint, exchange }: { endpoint: Endpoint; exchange: Exchange }): ErrorScope {
  const { description } = exchange.runtime;
  return { catchError: endpoint.catchError, exchange: () => exchange, description };
}

// A handler may throw anything, `undefined` and strings included: it must still end in a 500 that
// names the route.
function asError(thrown: unknown, description: string): object {
  if (typeof thrown === 'object' && thrown !== null) return thrown;
  return new Error(`${description} threw ${String(thrown)}, which is not an Error`, { cause: thrown });
}
