import { Catch, HttpError, type Context, type ExceptionFilter } from 'keel';

/**
 * A visitor who is not logged in, on a page that needs it: 303 to the login form, which brings them
 * back to the page afterwards. Other errors go on to the next filter, and keel's own answer.
 */
@Catch(HttpError)
export class LoginRedirect implements ExceptionFilter<HttpError> {
  catch(error: HttpError, ctx: Context) {
    if (error.code !== 'E_UNAUTHENTICATED') return;
    // Back to the page asked for; a form posted without a login has nothing to come back to.
    const next = ctx.req.method === 'GET' ? `?next=${encodeURIComponent(ctx.req.originalUrl)}` : '';
    ctx.redirect(303, `${ctx.urlFor('login')}${next}`);
  }
}
