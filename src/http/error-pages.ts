import type Accepts from 'accepts';
import type { Request, Response } from 'express';
import { pageData, type PageHelpers } from './page-data';
import type { Logger } from '../logging/logger';
import type { ViewRenderer } from './views';
import type { ErrorShape } from './error-shape';

/**
 * The faces of error answers: for a request that prefers HTML (its `Accept` header), the page
 * `views/errors/<status>.html`, else `views/errors/default.html`, rendered with `{ status, message }`.
 * Where neither exists, or the request prefers JSON, there is no page and the answer is a body of
 * `shape`, the application's error shape.
 *
 * @example
 * const page = pages.render(req, 404, 'order not found'); // undefined: answer JSON
 */
export class ErrorPages {
  readonly #views: ViewRenderer;
  readonly #logger: Logger;
  readonly #helpers: PageHelpers;
  /** The shape of an error answer that is no page. */
  readonly shape: ErrorShape;

  constructor(views: ViewRenderer, logger: Logger, helpers: PageHelpers, shape: ErrorShape) {
    this.#views = views;
    this.#logger = logger;
    this.#helpers = helpers;
    this.shape = shape;
  }

  /**
   * The page for `status` and `message`, or undefined when the answer should be JSON. It sees what
   * every page sees (`urlFor`, `flash`, the locals), so it can share their layout.
   * @example pages.render(req, res, 403, 'forbidden')
   */
  render(req: Request, res: Response, status: number, message: string): string | undefined {
    // The templates first: most services have none, and then `Accept` need not be parsed.
    const name = [`errors/${status}.html`, 'errors/default.html'].find((candidate) =>
      this.#views.has(candidate),
    );
    if (name === undefined || prefers(req) !== 'html') return undefined;
    try {
      return this.#views.render(name, pageData(this.#helpers, res, { status, message }));
    } catch (error) {
      // A broken error page must not hide the error it was to show: the JSON answer still goes out.
      this.#logger.error({ err: error, template: name }, 'error page failed to render');
      return undefined;
    }
  }
}

let accepts: typeof Accepts | undefined;

// What Express's `req.accepts(['json', 'html'])` answers, without loading Express for it.
function prefers(req: Request): string[] | string | false {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the first error page
  accepts ??= require('accepts') as typeof Accepts;
  return accepts(req).types(['json', 'html']);
}
