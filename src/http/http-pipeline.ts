import express, { type Express, type NextFunction, type Request, type Response } from 'express';
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

/**
 * Builds the Express application keel serves. Whatever the user mounts on it (`app.express.use`),
 * before or after boot, runs first; then keel's stage: body parsing, `_method` override, the
 * routes, and the 404/405 answers; every error ends at one responder.
 */
export function createHttpPipeline(options: PipelineOptions): Express {
  const { router, logger } = options;
  const app = express();
  app.disable('x-powered-by');

  const stage = express.Router();
  stage.use(...createBodyParsers(options.bodyLimit), methodOverride, router.dispatch);
  stage.use((req: Request, res: Response, next: NextFunction) => {
    const allowed = router.allowedMethods(req.path);
    if (allowed.length === 0) return next(new HttpError(404, `no route for ${req.method} ${req.path}`));
    res.set('Allow', allowed.join(', '));
    next(new HttpError(405, `method ${req.method} not allowed on ${req.path}`));
  });
  const respondToError = createErrorResponder(logger);

  // keel's stage runs where Express would run its final handler, so middleware the user adds to
  // `app.express` at any time still comes before keel's routes and its 404.
  const handled = app as Express & { handle: StackHandler };
  const handleUserStack = handled.handle.bind(app);
  handled.handle = (req, res) => {
    handleUserStack(req, res, (userError?: unknown) => {
      if (userError) respondToError(userError, req, res, noop);
      else
        stage(req, res, (error?: unknown) =>
          respondToError(error ?? new HttpError(404, 'not found'), req, res, noop),
        );
    });
  };
  return app;
}

// Express's own `app.handle`, which runs the app's middleware stack and then calls `done`.
type StackHandler = (req: Request, res: Response, done: (error?: unknown) => void) => void;

function noop(): void {}
