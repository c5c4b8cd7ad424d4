import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../errors';
import type { Logger } from '../logging/logger';
import type { Router } from '../routing/router';
import { Context, type RouteRuntime } from './context';
import type { ErrorPages } from './error-pages';
import { malformedPath, respondWithError } from './error-responder';
import { runFilters, type CatchingFilter } from './filters';
import type { ExpressObjects } from './express-objects';
import { runErrorMiddleware, runMiddleware } from './middleware';
import { markHeadersObserved } from './observed-headers';

/** What the dispatcher is built from, once, at boot. */
export interface DispatcherParts {
  readonly router: Router;
  /** Express's helpers for requests, and phase 1: its app, run only once handed out (`app.express`). */
  readonly objects: ExpressObjects;
  readonly isExpressInUse: () => boolean;
  /** Phase 2: body parsing and `_method`, for requests that carry a body. */
  readonly bodyStage: RequestHandler;
  /** Phase 3, and the error middleware: what `app.use` was given, in order; both lists may grow. */
  readonly middleware: readonly RequestHandler[];
  readonly errorMiddleware: readonly ErrorRequestHandler[];
  /** What filters of errors outside any route (phases 3 and 4) see: the `APP_FILTER`s, and a context's runtime. */
  readonly globalFilters: readonly CatchingFilter[];
  readonly runtime: RouteRuntime;
  readonly logger: Logger;
  readonly pages: ErrorPages;
}

/**
 * keel's request listener: every request runs the phases of the pipeline in order (raw Express
 * middleware, body, application middleware, routing, then the route's endpoint), each skipped when
 * it has nothing to do, and every error takes one way: the error middleware given to `app.use`, then
 * keel's responder. No Express router is walked for keel's own routes.
 *
 * @example
 * http.createServer(objects.serverClasses, dispatcher.handle);
 */
export class Dispatcher {
  readonly #parts: DispatcherParts;

  constructor(parts: DispatcherParts) {
    this.#parts = parts;
  }

  /** Answers one request. @example server.on('request', dispatcher.handle) */
  readonly handle = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const { objects, isExpressInUse } = this.#parts;
    objects.equip(incoming, outgoing);
    const req = incoming as Request;
    const res = outgoing as Response;
    if (!isExpressInUse()) return this.#parseBody(req, res);
    markHeadersObserved(res);
    const app = objects.load();
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    // Its router, not the app: the app would also set each request's prototype to its own, which
    // keel's objects have already and an in-process request's would lose its class's methods to.
    // The router calls `next` when nothing answered.
    app.router(req, res, ((error?: unknown) => {
      if (error) this.fail(error, req, res);
      else this.#parseBody(req, res);
    }) as NextFunction);
  };

  /**
   * Sends a failed request down the error path: Express error middleware given to `app.use`, then
   * keel's responder. @example dispatcher.fail(new HttpError(404, 'no such order'), req, res)
   */
  readonly fail = (error: unknown, req: Request, res: Response): void => {
    const { errorMiddleware } = this.#parts;
    if (errorMiddleware.length === 0) return respondWithError(error, req, res, this.#parts);
    runErrorMiddleware(errorMiddleware, error, req, res, (unanswered) => {
      respondWithError(unanswered, req, res, this.#parts);
    });
  };

  // Errors of application middleware and routing go to the `APP_FILTER`s first.
  #failUnrouted(error: unknown, req: Request, res: Response): void {
    const { globalFilters: filters, runtime } = this.#parts;
    if (filters.length === 0) return this.fail(error, req, res);
    runFilters(error, { filters, ctx: new Context(req, res, runtime), req, res, fail: this.fail });
  }

  #parseBody(req: Request, res: Response): void {
    this.#parts.bodyStage(req, res, (error?: unknown) => {
      if (error) this.fail(error, req, res);
      else this.#runMiddleware(req, res);
    });
  }

  #runMiddleware(req: Request, res: Response): void {
    const { middleware } = this.#parts;
    if (middleware.length === 0) return this.#route(req, res);
    runMiddleware(middleware, req, res, (error) => {
      if (error) this.#failUnrouted(error, req, res);
      else this.#route(req, res);
    });
  }

  #route(req: Request, res: Response): void {
    const { router } = this.#parts;
    const { method, url } = req as { method: string; url: string };
    const match = router.find(method, url) ?? (method === 'HEAD' ? router.find('GET', url) : undefined);
    if (match?.endpoint) return match.endpoint.handle(req, res, match.params);
    if (match) return this.#failUnrouted(malformedPath(), req, res);
    this.#answerUnrouted(req, res, method, url);
  }

  // A known path without a route for this method: 204 to OPTIONS, 405 otherwise; else 404.
  #answerUnrouted(req: Request, res: Response, method: string, url: string): void {
    const allowed = this.#parts.router.allowedMethods(url);
    const path = url.split('?', 1)[0] ?? url;
    if (allowed.length === 0)
      return this.#failUnrouted(new HttpError(404, `no route for ${method} ${path}`), req, res);
    res.setHeader('Allow', allowed.join(', '));
    if (method === 'OPTIONS') return this.#answerPreflight(req, res, url, allowed);
    this.#failUnrouted(new HttpError(405, `method ${method} not allowed on ${path}`), req, res);
  }

  // A preflight goes through the middleware of the route it asks about (CORS on one controller
  // answers it there); unanswered, it is 204 with `Allow`.
  #answerPreflight(req: Request, res: Response, url: string, allowed: readonly string[]): void {
    const asked = req.headers['access-control-request-method'];
    const method = typeof asked === 'string' && allowed.includes(asked) ? asked : allowed[0];
    const match = method === undefined ? undefined : this.#parts.router.find(method, url);
    const answer = (): void => {
      if (res.headersSent || res.writableEnded) return;
      res.statusCode = 204;
      res.end();
    };
    const runMiddleware = match?.endpoint?.runMiddleware;
    if (!runMiddleware) return answer();
    runMiddleware(req, res, (error) => {
      if (error) this.#failUnrouted(error, req, res);
      else answer();
    });
  }
}
