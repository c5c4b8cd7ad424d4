import type { Request } from 'express';
import { AuthErrors } from '../errors/auth-errors';
import type { AuthUser } from '../http/auth-user';
import { authenticateAs, type Context } from '../http/context';
import type { ApiTokensStrategy, IssuedToken, IssueTokenOptions } from './api-tokens';
import type { Authentication, AuthSettings } from './authentication';
import type { SessionStrategy } from './session-strategy';

/** What `auth.tokens` does with the `apiTokens()` strategy's table. */
export interface ApiTokenIssuer {
  /** A new token for `user`, returned this once (`{ id, token }`); the table keeps its hash. @example const { id, token } = await auth.tokens.issue(user, { name: 'CI' }) */
  issue(user: AuthUser, options: IssueTokenOptions): Promise<IssuedToken>;
  /** Revokes the token `id`, on every replica from its next request; false when there was none to revoke. @example await auth.tokens.revoke(id) */
  revoke(id: string): Promise<boolean>;
}

/**
 * What services and handlers ask of authentication: log in and out (`session()`), issue and revoke
 * API tokens (`apiTokens()`), and ask the policies. Provided by `AuthModule` to every module.
 *
 * @example
 * constructor(private readonly auth: Auth) {}
 * await this.auth.login(ctx, user);
 */
export class Auth {
  readonly #settings: AuthSettings;
  readonly #authentication: Authentication;
  readonly tokens: ApiTokenIssuer;

  /** @internal AuthModule makes it */
  constructor(settings: AuthSettings, authentication: Authentication) {
    this.#settings = settings;
    this.#authentication = authentication;
    this.tokens = {
      issue: (user, options) =>
        this.#strategy<ApiTokensStrategy>('issue', 'auth.tokens.issue', 'apiTokens()').issue(
          this.#settings.userId(user),
          options,
        ),
      revoke: (id) =>
        this.#strategy<ApiTokensStrategy>('issue', 'auth.tokens.revoke', 'apiTokens()').revoke(id),
    };
  }

  /**
   * Logs `user` in on this session, renewed: nothing of the session before it (its cookie, its
   * CSRF token) opens anything after it. @example await auth.login(ctx, user)
   */
  async login(ctx: Context, user: AuthUser): Promise<void> {
    const strategy = this.#strategy<SessionStrategy>('login', 'auth.login', 'session()');
    await strategy.login(ctx.req, this.#settings.userId(user));
    authenticateAs(ctx, user);
  }

  /** Ends this session's login, on every replica: a copy of its cookie opens nothing any more. @example await auth.logout(ctx) */
  async logout(ctx: Context): Promise<void> {
    await this.#strategy<SessionStrategy>('logout', 'auth.logout', 'session()').logout(ctx.req);
  }

  /** Whether `user` may `action` on `record`, as its entity's `@Policy` says. @example await auth.can(user, 'update', article) */
  can(user: AuthUser, action: string, record: object): Promise<boolean> {
    return this.#authentication.policies.can(user, action, record);
  }

  /**
   * Whether the request's API token holds `ability` (or `'*'`); true for requests a session or a
   * JWT authenticated. @example if (!auth.tokenCan(ctx, 'orders:write')) return ctx.error(403, 'forbidden')
   */
  tokenCan(ctx: Context, ability: string): boolean {
    return this.#authentication.tokenCan(ctx.req as Request, ability);
  }

  // The first strategy with `method`: there is one session and one token table per application.
  #strategy<T>(method: string, call: string, factory: string): T {
    for (const strategy of this.#settings.strategies.values()) {
      if (method in strategy) return strategy as T;
    }
    throw AuthErrors.noStrategyOfKind(call, factory);
  }
}
