import type { Request } from 'express';
import type { Logger } from '../logging/logger';
import type { ViewRenderer } from './views';

/**
 * The HTML face of error answers: for a request that prefers HTML (its `Accept` header), the page
 * `views/errors/<status>.html`, else `views/errors/default.html`, rendered with `{ status, message }`.
 * Where neither exists, or the request prefers JSON, there is no page and the answer stays JSON.
 *
 * @example
 * const page = pages.render(req, 404, 'order not found'); // undefined: answer JSON
 */
export class ErrorPages {
  readonly #views: ViewRenderer;
  readonly #logger: Logger;

  constructor(views: ViewRenderer, logger: Logger) {
    this.#views = views;
    this.#logger = logger;
  }

  /** The page for `status` and `message`, or undefined when the answer should be JSON. @example pages.render(req, 403, 'forbidden') */
  render(req: Request, status: number, message: string): string | undefined {
    if (req.accepts(['json', 'html']) !== 'html') return undefined;
    const name = [`errors/${status}.html`, 'errors/default.html'].find((candidate) =>
      this.#views.has(candidate),
    );
    if (name === undefined) return undefined;
    try {
      return this.#views.render(name, { status, message });
    } catch (error) {
      // A broken error page must not hide the error it was to show: the JSON answer still goes out.
      this.#logger.error({ err: error, template: name }, 'error page failed to render');
      return undefined;
    }
  }
}
