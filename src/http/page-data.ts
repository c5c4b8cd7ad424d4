import type { Response } from 'express';
import type { ServerResponse } from 'node:http';
import type { RouteParams, RouteQuery } from './route-info';

/** What every page is rendered with besides its data: the route URLs and the application's locals. */
export interface PageHelpers {
  readonly urlFor: (name: string, params?: RouteParams, query?: RouteQuery) => string;
  readonly locals: object;
  /** The nonce of the page `res` answers with, its Content-Security-Policy held; undefined without one. */
  readonly pageNonce: (res: ServerResponse) => string | undefined;
}

/**
 * What a template sees: `data` over `res.locals` (what middleware left: flash messages, CSRF
 * helpers) over the application's locals, over the helpers `urlFor`, the page's CSP `nonce` and an
 * empty `flash`.
 *
 * @example
 * views.render('orders/show.html', pageData(helpers, res, { order }));
 */
export function pageData(helpers: PageHelpers, res: Response, data: object): object {
  // Express's settings sit in its locals for its own renderer: keel's pages show only the application's.
  const page: Record<string, unknown> = {
    urlFor: helpers.urlFor,
    // Empty without a policy, so that `nonce="<%= it.nonce %>"` prints no `undefined`.
    nonce: helpers.pageNonce(res) ?? '',
    flash: {},
    ...helpers.locals,
  };
  delete page.settings;
  return Object.assign(page, res.locals, data);
}
