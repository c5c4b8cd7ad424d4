import express, {
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { HttpError } from '../errors';
import type { Logger } from '../logging/logger';
import type { Router } from '../routing/router';
import { createBodyParsers } from './body-parsers';
import { forRequestsWithBody } from './body-stage';
import { createErrorResponder } from './error-responder';
import { methodOverride } from './method-override';

/** What the pipeline is built from. */
export interface PipelineOptions {
  readonly router: Router;
  readonly logger: Logger;
  readonly bodyLimit: string | number;
}

// The part of Express's router this module relies on: its layers, in order, and their functions.
interface Layer {
  readonly handle: (...args: never[]) => unknown;
}

interface LayeredApp {
  router: { stack: Layer[] };
  use: (...args: unknown[]) => unknown;
  route: (path: string) => unknown;
}

/**
 * Builds the Express application keel serves. Middleware and routes the user mounts on it
 * (`app.express.use`, `app.express.get`), before or after boot, run before keel's stage (body
 * parsing, `_method`, the routes, 404/405); error handlers the user mounts run after it, so they
 * see the routes' errors; keel's error responder answers last.
 */
export function createHttpPipeline(options: PipelineOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  const before = express.Router();
  const stage = express.Router();
  stage.use(
    forRequestsWithBody([...createBodyParsers(options.bodyLimit), methodOverride]),
    options.router.dispatch,
    answerUnrouted(options.router),
  );
  const after = express.Router();
  app.use(unlessEmpty(before), stage, errorHandlersIn(after), createErrorResponder(options.logger));
  redirectRegistrations(app as unknown as LayeredApp, before, after);
  return app;
}

// An empty Router still costs a walk per request; most applications mount nothing on app.express.
function unlessEmpty(router: express.Router): RequestHandler {
  return (req, res, next) => {
    if (router.stack.length === 0) next();
    else router(req, res, next);
  };
}

// A Router cannot be entered with an error, and Express skips non-error layers while one is
// pending: hand the error over and let the router's first layer raise it again inside.
function errorHandlersIn(router: express.Router): ErrorRequestHandler {
  const pending = new WeakMap<Request, unknown>();
  router.use((req: Request, _res: Response, next: NextFunction) => next(pending.get(req)));
  return (error: unknown, req, res, next) => {
    pending.set(req, error);
    router(req, res, next);
  };
}

// Express appends what `use` adds to the end of its stack, after keel's responder. Moving each new
// layer, as it is added, to the end of `before` (or of `after`, for error handlers, which Express
// tells by their arity) keeps keel's stage in place; both only grow at their end, so a request in
// flight never sees a layer move under it.
function redirectRegistrations(app: LayeredApp, before: express.Router, after: express.Router): void {
  const stack = app.router.stack;
  const use = app.use.bind(app);
  app.use = (...args: unknown[]) => {
    const start = stack.length;
    use(...args);
    for (const layer of stack.splice(start)) {
      const target = layer.handle.length === 4 ? after : before;
      (target as unknown as { stack: Layer[] }).stack.push(layer);
    }
    return app;
  };
  // `app.get`, `app.post`, ... and `app.all` create their routes through `app.route`.
  app.route = (path: string) => before.route(path);
}

function answerUnrouted(router: Router): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const allowed = router.allowedMethods(req.path);
    if (allowed.length === 0) return next(new HttpError(404, `no route for ${req.method} ${req.path}`));
    res.set('Allow', allowed.join(', '));
    next(new HttpError(405, `method ${req.method} not allowed on ${req.path}`));
  };
}
