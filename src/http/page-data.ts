import type { Response } from 'express';
import type { RouteParams, RouteQuery } from './route-info';

/** What every page is rendered with besides its data: the route URLs and the application's locals. */
export interface PageHelpers {
  readonly urlFor: (name: string, params?: RouteParams, query?: RouteQuery) => string;
  readonly locals: object;
}

/**
 * What a template sees: `data` over `res.locals` (what middleware left: flash messages, CSRF
 * helpers) over the application's locals, over the helpers `urlFor` and an empty `flash`.
 *
 * @example
 * views.render('orders/show.html', pageData(helpers, res, { order }));
 */
export function pageData(helpers: PageHelpers, res: Response, data: object): object {
  // Express's settings sit in its locals for its own renderer: keel's pages show only the application's.
  const page: Record<string, unknown> = { urlFor: helpers.urlFor, flash: {}, ...helpers.locals };
  delete page.settings;
  return Object.assign(page, res.locals, data);
}
