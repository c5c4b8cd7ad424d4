import type { Express, NextFunction, Request, Response } from 'express';
import { EventEmitter } from 'node:events';

/**
 * An Express application, built as `express()` builds one, from Express's own application, request
 * and response modules. Express's index would also load its body parsers and its static file server
 * at every start, which keel loads with the first request that has a body, if one ever comes
 * (measured here: 20 ms of a 530 ms cold start). `test/http/express-app.test.ts` holds it to what
 * `express()` gives, so that an Express upgrade that changes either fails there.
 *
 * @example
 * const app = createExpressApp();
 * app.disable('x-powered-by');
 */
export function createExpressApp(): Express {
  /* eslint-disable @typescript-eslint/no-require-imports -- Express's modules, below its index */
  const application = require('express/lib/application') as object;
  const request = require('express/lib/request') as object;
  const response = require('express/lib/response') as object;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const app = function (req: Request, res: Response, next: NextFunction): void {
    (app as unknown as { handle: (req: Request, res: Response, next: NextFunction) => void }).handle(
      req,
      res,
      next,
    );
  } as unknown as Express;
  addMissing(app, EventEmitter.prototype);
  addMissing(app, application);
  app.request = Object.create(request, { app: ownedBy(app) }) as Express['request'];
  app.response = Object.create(response, { app: ownedBy(app) }) as Express['response'];
  app.init();
  return app;
}

// What merge-descriptors does for `express()`: each property of `source` that `target` lacks.
function addMissing(target: object, source: object): void {
  for (const name of Object.getOwnPropertyNames(source)) {
    if (Object.hasOwn(target, name)) continue;
    Object.defineProperty(target, name, Object.getOwnPropertyDescriptor(source, name) as PropertyDescriptor);
  }
}

function ownedBy(app: Express): PropertyDescriptor {
  return { configurable: true, enumerable: true, writable: true, value: app };
}
