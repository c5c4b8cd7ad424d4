import type { CookieSettings } from './cookies';
import type { Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logging/logger';
import type { RouteRuntime } from './context';
import type { CorsPolicy } from './cors-policy';
import type { ErrorPages } from './error-pages';
import { Exchange, type PreparedHandler } from './exchange';
import { HandlerErrors } from '../errors/handler-errors';
import { runMiddleware } from './middleware';
import type { RequestState } from './request-state';
import type { RouteInfo } from './route-info';
import { answerStatus, declaredStatus } from './answer-status';
import { isBytes, isStreamBody, streamBody } from './body-stream';
import { sendBytes, sendEmpty, sendJson } from './send';
import { isThenable } from './thenable';
import type { ViewRenderer } from './views';
import type { OpenStreams } from './open-streams';
import type { AnswerSettings } from './answer-settings';
import { shapeOutput } from './output-shaper';

/** Path parameters by name, decoded. */
export type PathParams = Record<string, string>;

/**
 * Answers an error of a request, or says it did not: the filters, as the hooks build them. Resolves
 * (or returns) whether the request was answered; throws or rejects with a filter's own error.
 */
export type ErrorCatcher = (error: unknown, exchange: Exchange) => boolean | Promise<boolean>;

/** What the dispatcher runs for one route: prepared once, when the route is added. */
export interface Endpoint {
  /** Where an error of this route goes first: its own filters, then the application's. */
  readonly catchError: ErrorCatcher | undefined;
  /** Opens one request the table matched: its context, with the path parameters set, and its state told the route. */
  open(req: IncomingMessage, res: ServerResponse, params: PathParams, state: RequestState): Exchange;
  /**
   * Runs the route's middleware, guards, interceptors and handler, and sends a returned value:
   * undefined when it answered at once, else a promise; throws or rejects with the route's error.
   */
  run(exchange: Exchange): Promise<void> | undefined;
  /**
   * Runs only the route's own middleware (`@UseMiddleware`), for a CORS preflight: an OPTIONS
   * request to its path that no route answers. Undefined when the route has none.
   */
  /** The route's own CORS policy (`@Cors`), `false` where it has none at all; undefined: the application's. */
  readonly cors?: CorsPolicy | false | undefined;
  readonly runMiddleware?: (
    req: IncomingMessage,
    res: ServerResponse,
    done: (error?: unknown) => void,
  ) => void;
}

/** One route as the layers above hand it over: its handler inside its guards and interceptors, and its other hooks. */
export interface RouteCall {
  readonly route: RouteInfo;
  /** The route, as error messages name it: `OrderController.show (GET /orders/:id)`. */
  readonly description: string;
  readonly metadata: ReadonlyMap<unknown, unknown>;
  /** Shapes what the route answers with (class instances); undefined: sent as it is. */
  readonly shape?: (value: unknown) => unknown;
  /** A probe's route (health, metrics): the access log keeps its lines at debug. */
  readonly isProbe: boolean;
  readonly middleware: readonly RequestHandler[];
  readonly call: PreparedHandler;
  readonly catchError: ErrorCatcher | undefined;
  /** The route's own CORS policy, `false` for none; undefined: the application's. */
  readonly cors?: CorsPolicy | false | undefined;
}

/** What every endpoint shares: the views, the logger, and the route URLs. */
export interface EndpointParts {
  readonly views: ViewRenderer;
  readonly pages: ErrorPages;
  readonly logger: Logger;
  readonly urlFor: RouteRuntime['urlFor'];
  readonly locals: object;
  readonly loadHelpers: () => void;
  readonly pageNonce: RouteRuntime['pageNonce'];
  readonly streams: OpenStreams;
  readonly answers: AnswerSettings;
  readonly cookies: CookieSettings;
}

/**
 * Prepares the endpoint of one route, once, when the route is added: per request it opens the
 * exchange (the context), runs the route's middleware, then its call (the handler inside its guards
 * and interceptors, sync or async), and sends a returned value as JSON. It catches nothing: a
 * throw, a rejection or a handler that never answered leaves `run` for the dispatcher's one error
 * path, which starts with `catchError`. Hooks a route does not have cost it nothing.
 *
 * @example
 * const endpoint = prepareEndpoint({ route, description, metadata, isProbe: false, middleware: [], call, catchError }, parts);
 */
export function prepareEndpoint(routeCall: RouteCall, parts: EndpointParts): Endpoint {
  const { description, middleware, call, isProbe, route } = routeCall;
  const runtime: RouteRuntime = {
    route: routeCall.route,
    urlFor: parts.urlFor,
    locals: parts.locals,
    loadHelpers: parts.loadHelpers,
    pageNonce: parts.pageNonce,
    views: parts.views,
    pages: parts.pages,
    logger: parts.logger,
    description,
    metadata: routeCall.metadata,
    streams: parts.streams,
    answers: parts.answers,
    shape: routeCall.shape ?? shapeOutput,
    cookies: parts.cookies,
  };
  // Middleware is written against Express's request and response.
  if (middleware.length > 0) parts.loadHelpers();

  const status = answerStatus(route.method, routeCall.metadata);
  // With `@HttpCode` the handler has said what it answers, so returning nothing answers that, bodiless.
  const isDeclared = declaredStatus(routeCall.metadata) !== undefined;

  const finish = (exchange: Exchange, result: unknown): Promise<void> | undefined => {
    if (exchange.hasResponded) return undefined;
    if (result === undefined) {
      if (exchange.isTakenOver) return undefined;
      if (!isDeclared) throw HandlerErrors.noResponse(description);
      sendEmpty(exchange.res, statusOf(exchange));
      return undefined;
    }
    if (isBytes(result)) sendBytes(exchange.res, statusOf(exchange), result);
    else if (isStreamBody(result)) return streamBody(exchange.res, statusOf(exchange), result);
    // A value JSON cannot hold (a BigInt, a cycle) throws here, a 500 like any other throw.
    else sendJson(exchange.res, statusOf(exchange), runtime.shape(result));
    return undefined;
  };
  // A status the handler set through `ctx.res` wins over the route's (Node starts every response at 200).
  const statusOf = (exchange: Exchange): number =>
    exchange.res.statusCode === 200 ? status : exchange.res.statusCode;

  const execute = (exchange: Exchange): Promise<void> | undefined => {
    const result = call(exchange.ctx, exchange.req);
    // Sync handlers finish at once: no promise and no extra tick on the hot path.
    if (isThenable(result)) return Promise.resolve(result).then((value) => finish(exchange, value));
    return finish(exchange, result);
  };

  return {
    catchError: routeCall.catchError,
    cors: routeCall.cors,
    open(incoming, outgoing, params, state) {
      // The dispatcher gives endpoints only requests and responses it has equipped with Express's helpers.
      const req = incoming as Request;
      req.params = params;
      state.route = route;
      state.isProbe = isProbe;
      return new Exchange(req, outgoing as Response, runtime, state);
    },
    run(exchange) {
      if (middleware.length === 0) return execute(exchange);
      return new Promise<void>((resolve, reject) => {
        runMiddleware(middleware, exchange.req, exchange.res, (error) => (error ? reject(error) : resolve()));
      }).then(() => execute(exchange));
    },
    runMiddleware:
      middleware.length === 0
        ? undefined
        : (incoming, outgoing, done) =>
            runMiddleware(middleware, incoming as Request, outgoing as Response, done),
  };
}
