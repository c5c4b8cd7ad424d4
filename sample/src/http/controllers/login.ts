import { Auth, Controller, Get, Post, Public, RateLimit, type Context } from 'keel';
import { OperatorAccount } from '../../auth/operator';
import { pathToReturnTo } from '../return-path';

/**
 * The HTML pages' login: `GET /login` shows the form, `POST /login` starts a session (renewed, so a
 * cookie captured before it opens nothing), `POST /logout` ends it on every replica.
 */
@Public()
@Controller()
export class LoginController {
  constructor(
    private readonly operator: OperatorAccount,
    private readonly auth: Auth,
  ) {}

  // GET /login?next=/orders/create
  @Get('login', { name: 'login' })
  form(ctx: Context) {
    ctx.html(200, 'login.html', { email: '', next: returnPath(ctx, ctx.query('next', '')), failed: false });
  }

  // POST /login: back where the visitor was going, or the form again, 401, saying only that it failed
  @RateLimit('logins')
  @Post('login', { name: 'login.submit' })
  async logIn(ctx: Context) {
    const email = ctx.form('email', '');
    const next = returnPath(ctx, ctx.form('next', ''));
    const user = await this.operator.logIn(email, ctx.form('password', ''));
    if (!user) return ctx.html(401, 'login.html', { email, next, failed: true });
    await this.auth.login(ctx, user);
    ctx.redirect(303, next);
  }

  // POST /logout
  @Post('logout', { name: 'logout' })
  async logOut(ctx: Context) {
    await this.auth.logout(ctx);
    ctx.redirect(303, ctx.urlFor('welcome'));
  }
}

// Where a login goes back to: the page that sent the visitor to it, else the orders.
function returnPath(ctx: Context, next: string): string {
  return pathToReturnTo(next, ctx.urlFor('orders.index'));
}
