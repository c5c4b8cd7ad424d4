import type { Context, RouteHandler } from 'keel';
import type { DatabaseTarget } from '../database/database-target';

/** `GET /`: a function controller, the page a newcomer lands on, linking to the orders. */
export function welcome(database: DatabaseTarget): RouteHandler {
  return (ctx: Context) => ctx.html(200, 'welcome.html', { database: database.description });
}
