import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Class } from '../container/token';
import type { Logger } from '../logging/logger';
import { Router } from '../routing/router';
import { RouteUrls } from '../routing/route-urls';
import { createBodyParsers } from '../http/body-parsers';
import { forRequestsWithBody } from '../http/body-stage';
import type { CanActivate, ExceptionFilter, Interceptor } from '../hooks/hook-types';
import { Dispatcher } from '../http/dispatcher';
import { CorsRules } from '../http/cors-rules';
import type { AnswerSettings } from '../http/answer-settings';
import type { CorsPolicy } from '../http/cors-policy';
import { ErrorPages } from '../http/error-pages';
import { beforeHead } from '../http/held-headers';
import type { SecurityHeaders } from '../http/security-headers';
import type { Versioning } from '../http/versioning';
import type { ErrorDescriber } from '../http/error-responder';
import type { ErrorShape } from '../http/error-shape';
import type { CookieSettings } from '../http/cookies';
import { GLOBAL_KINDS, resolveHooks, type GlobalHooks } from '../hooks/route-hooks';
import { filterCatcher } from '../hooks/filters';
import { createExpressApp } from '../http/express-app';
import { ExpressObjects, type ServerClasses } from '../http/express-objects';
import { methodOverride } from '../http/method-override';
import { toMiddlewareFunctions } from '../hooks/middleware-functions';
import type { MiddlewareClass, MiddlewareEntry } from '../http/middleware';
import { ViewRenderer } from '../http/views';
import { OpenStreams } from '../http/open-streams';
import { shapeOutput } from '../http/output-shaper';
import { accessLog } from '../observability/access-log';
import type { RequestRefusal } from '../http/dispatcher';
import { composeWatchers, type RequestWatcher } from '../http/request-watchers';
import { registeredTracer } from '../observability/registered-tracer';
import type { requestSpans as RequestSpans } from '../observability/request-span';
import type { PreparedHandler } from '../http/exchange';
import type { LimitableRoute } from '../ratelimit/rate-limits';

export type { Express } from 'express';

/** What the pipeline is assembled from at boot. */
export interface PipelineOptions {
  readonly resolve: <T>(type: Class<T>) => T;
  readonly logger: Logger;
  /** Where the access lines go; undefined: the access log is off. */
  readonly accessLogger: Logger | undefined;
  /** What modules watch every request with (metrics), besides the access log. */
  readonly watchers: readonly RequestWatcher[];
  /** The request id's header; undefined: neither read nor answered. */
  readonly requestIdHeader: string | undefined;
  /** Whether requests run in the request scope that `currentRequest()` reads (tracing puts them there anyway). */
  readonly isRequestScoped: boolean;
  readonly views: string;
  readonly bodyLimit: string | number;
  /** What errors without a status of their own mean, asked in order (the database's). */
  readonly errorDescribers: readonly ErrorDescriber[];
  /** The shape of every error answer. */
  readonly errorShape: ErrorShape;
  /** What controllers' and resources' paths go under; `''` for nothing. */
  readonly prefix: string;
  /** The keys cookies are signed with, and whether they are `Secure` by default. */
  readonly cookies: CookieSettings;
  /** The `APP_GUARD`, `APP_INTERCEPTOR` and `APP_FILTER` instances, in module order. */
  readonly globals: GlobalHookInstances;
  /** Puts a route's handler behind its rate limit, if it has one; decided once per route, at boot. */
  readonly limit: (route: LimitableRoute, handler: PreparedHandler) => PreparedHandler;
  /** Turns requests away before any phase (load shedding); undefined when nothing does. */
  readonly refuse: RequestRefusal | undefined;
  /** The application's CORS policy (option `cors`); undefined: none, unless a controller declares one. */
  readonly cors: CorsPolicy | undefined;
  /** How answers' bodies are written: ETags, compression. */
  readonly answers: AnswerSettings;
  /** The headers every answer carries, and HTML answers' Content-Security-Policy; undefined: none. */
  readonly security: SecurityHeaders | undefined;
  /** How requests name an API version (option `versioning`); undefined: none do. */
  readonly versioning: Versioning | undefined;
}

/** The global hooks as the container provides them, before keel checks and pairs them. */
export interface GlobalHookInstances {
  readonly guards: readonly CanActivate[];
  readonly interceptors: readonly Interceptor[];
  readonly filters: readonly ExceptionFilter[];
}

/**
 * The application's HTTP side, assembled once at boot: the router and its route table, the Express
 * app whose helpers requests carry (and whose middleware is phase 1), the middleware `app.use` adds,
 * and the dispatcher that runs them all.
 *
 * @example
 * const pipeline = new Pipeline({ resolve, logger, accessLogger, watchers, requestIdHeader, views, bodyLimit, globals, errorDescribers, limit });
 * http.createServer(pipeline.serverClasses, pipeline.handle);
 */
export class Pipeline {
  readonly router: Router;
  /** The event streams open now, which a graceful shutdown ends. */
  readonly streams = new OpenStreams();
  readonly #objects: ExpressObjects;
  readonly #dispatcher: Dispatcher;
  readonly #resolve: <T>(type: Class<T>) => T;
  readonly #middleware: RequestHandler[] = [];
  readonly #errorMiddleware: ErrorRequestHandler[] = [];

  constructor(options: PipelineOptions) {
    this.#resolve = options.resolve;
    this.#objects = new ExpressObjects(() => {
      const app = createExpressApp();
      app.disable('x-powered-by');
      return app;
    });
    const { logger } = options;
    const views = new ViewRenderer(options.views, { cache: process.env.NODE_ENV === 'production' });
    const urls = new RouteUrls();
    const urlFor = urls.urlFor.bind(urls);
    const { locals } = this.#objects;
    const { loadHelpers } = this.#objects;
    const { security } = options;
    const pageNonce = security === undefined ? withoutNonce : security.pageNonce;
    if (security !== undefined) beforeHead(this.#objects.serverClasses.ServerResponse, security.sealPage);
    const pages = new ErrorPages(views, logger, { urlFor, locals, pageNonce }, options.errorShape);
    const globals = checkGlobalHooks(options.globals, options.resolve);
    const tracer = registeredTracer();
    const cors = new CorsRules(options.cors);
    this.router = new Router({
      resolve: options.resolve,
      endpoints: {
        globals,
        wrap: options.limit,
        parts: {
          views,
          pages,
          logger,
          urlFor,
          locals,
          loadHelpers,
          pageNonce,
          streams: this.streams,
          answers: options.answers,
          cookies: options.cookies,
        },
        cors,
      },
      urls,
      versioning: options.versioning,
      prefix: options.prefix,
    });
    this.#dispatcher = new Dispatcher({
      router: this.router,
      objects: this.#objects,
      bodyStage: forRequestsWithBody(createBodyParsers(options.bodyLimit), methodOverride),
      middleware: this.#middleware,
      errorMiddleware: this.#errorMiddleware,
      catchUnrouted: filterCatcher(globals.filters),
      runtime: {
        route: undefined,
        urlFor,
        locals,
        loadHelpers,
        pageNonce,
        views,
        pages,
        logger,
        description: 'application middleware',
        metadata: new Map(),
        streams: this.streams,
        shape: shapeOutput,
        answers: options.answers,
        cookies: options.cookies,
      },
      logger,
      pages,
      describers: options.errorDescribers,
      requestIdHeader: options.requestIdHeader,
      isRequestScoped: options.isRequestScoped,
      watch: composeWatchers(
        options.accessLogger === undefined
          ? options.watchers
          : [accessLog(options.accessLogger), ...options.watchers],
      ),
      tracing: tracer === undefined ? undefined : loadRequestSpans()(tracer),
      refuse: options.refuse,
      cors,
      security,
      versionOf: options.versioning?.versionOf,
    });
  }

  /** The classes a keel server creates its requests and responses from. */
  get serverClasses(): ServerClasses {
    return this.#objects.serverClasses;
  }

  /**
   * The Express app, handed out: from now on its middleware runs first (phase 1) for every request.
   * Until then the phase costs nothing. @example pipeline.handOutExpress().use(helmet())
   */
  handOutExpress(): Express {
    return this.#objects.handOut();
  }

  /** Adds application middleware (phase 3) and error middleware. @example pipeline.use(cors()) */
  use(entries: readonly (MiddlewareEntry | MiddlewareClass)[]): void {
    if (entries.length === 0) return;
    // Middleware is written against Express's request and response.
    this.#objects.load();
    const { handlers, errorHandlers } = toMiddlewareFunctions(entries, this.#resolve);
    this.#middleware.push(...handlers);
    this.#errorMiddleware.push(...errorHandlers);
  }

  /** Answers one request, whatever created it. @example inject(pipeline.handle, '/health') */
  get handle(): (req: IncomingMessage, res: ServerResponse) => void {
    return this.#dispatcher.handle;
  }

  /**
   * Answers one request of a server's own `'request'` or `'upgrade'` event, from Node's callback.
   * @example server.on('request', pipeline.handleOnServer)
   */
  get handleOnServer(): (req: IncomingMessage, res: ServerResponse) => void {
    return this.#dispatcher.handleOnServer;
  }
}

// The global hooks are checked once, as a route's are: each must have its method.
function checkGlobalHooks(instances: GlobalHookInstances, resolve: <T>(type: Class<T>) => T): GlobalHooks {
  return resolveHooks(instances, { source: 'the application', resolve, kinds: GLOBAL_KINDS });
}

// Spans need @opentelemetry/api, loaded only where an SDK registered a tracer provider.
function loadRequestSpans(): typeof RequestSpans {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load
  return (require('../observability/request-span') as { requestSpans: typeof RequestSpans }).requestSpans;
}

// Without security headers a page has no policy, and its templates no nonce.
function withoutNonce(): undefined {
  return undefined;
}
