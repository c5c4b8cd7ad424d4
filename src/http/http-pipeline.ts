import express, {
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

/**
 * Builds the Express application keel serves. Middleware the user mounts on it (`app.express.use`),
 * before or after boot, runs before keel's stage (body parsing, `_method`, the routes, 404/405);
 * error handlers the user mounts run after it, so they see the routes' errors; keel's error
 * responder answers last.
 */
export function createHttpPipeline(options: PipelineOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  const stage = express.Router();
  stage.use(
    ...createBodyParsers(options.bodyLimit),
    methodOverride,
    options.router.dispatch,
    answerUnrouted(options.router),
  );

  const respond = createErrorResponder(options.logger);

  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  let arrangedLength = 0;
  // Express appends what `use` adds after keel's layers; this first layer puts it back in place
  // before the request walks on, and only when the stack has grown since.
  const arrange: RequestHandler = (_req, _res, next) => {
    if (stack.length !== arrangedLength) arrangedLength = arrangeLayers(stack, [arrange, stage, respond]);
    next();
  };
  app.use(arrange, stage, respond);
  arrangedLength = stack.length;
  return app;
}

function arrangeLayers(stack: Layer[], [arrange, stage, respond]: readonly unknown[]): number {
  const find = (handle: unknown) => stack.find((layer) => layer.handle === handle) as Layer;
  const keel = [find(arrange), find(stage), find(respond)];
  const added = stack.filter((layer) => !keel.includes(layer));
  // Express tells error handlers from middleware by their arity, and so does this.
  const isErrorHandler = (layer: Layer) => layer.handle.length === 4;
  const [first, routes, last] = keel as [Layer, Layer, Layer];
  stack.splice(
    0,
    stack.length,
    first,
    ...added.filter((layer) => !isErrorHandler(layer)),
    routes,
    ...added.filter(isErrorHandler),
    last,
  );
  return stack.length;
}

function answerUnrouted(router: Router): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const allowed = router.allowedMethods(req.path);
    if (allowed.length === 0) return next(new HttpError(404, `no route for ${req.method} ${req.path}`));
    res.set('Allow', allowed.join(', '));
    next(new HttpError(405, `method ${req.method} not allowed on ${req.path}`));
  };
}
