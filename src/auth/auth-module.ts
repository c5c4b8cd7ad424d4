import type { DataSource } from 'typeorm';
import { Container } from '../container/container';
import type { DynamicModule } from '../container/module-definition';
import type { OptionalDependency } from '../container/provider';
import { InjectionToken, type Token } from '../container/token';
import { optionsProvider, type OptionsFactory } from '../container/options-factory';
import { Module } from '../decorators/module';
import { AuthErrors } from '../errors/auth-errors';
import type { AuthUser } from '../http/auth-user';
import { LOGGER, type Logger } from '../logging/logger';
import { Metrics } from '../observability/metrics';
import { ROUTE_SECURITY } from '../openapi/route-security';
import { loadTypeOrm } from '../orm/typeorm';
import { Auth } from './auth';
import { AuthFailures } from './auth-failures';
import { Authentication, type AuthSettings, type UserFinder } from './authentication';
import type { AuthClaims, AuthStrategy } from './strategy';

/** How `AuthModule` finds the user a request's claims name: a factory, given `inject`'s instances, of the finder. */
export interface UserLookup {
  readonly inject?: readonly (Token | OptionalDependency)[];
  readonly useFactory: (
    ...injected: never[]
  ) => (
    claims: AuthClaims,
    strategy: string,
  ) => AuthUser | null | undefined | Promise<AuthUser | null | undefined>;
}

/** Options of {@link AuthModule.forRoot}. */
export interface AuthModuleOptions {
  /** The strategy (or strategies, tried in order) of every controller route without `@Public()` or `@Authenticated(...)`; none: such routes are open. */
  readonly default?: string | readonly string[];
  /** The strategies by name (`jwt()`, `session()`, `apiTokens()`), or a factory of them given `inject`'s instances (the configuration). */
  readonly strategies:
    Readonly<Record<string, AuthStrategy>> | OptionsFactory<Readonly<Record<string, AuthStrategy>>>;
  /** Finds the user of a request's claims (`claims.sub`); null or undefined is a 401. */
  readonly user: UserLookup;
  /** The id sessions and API tokens keep of a user. Default: `String(user.id)`. */
  readonly userId?: (user: AuthUser) => string;
}

const AUTH_SETTINGS = new InjectionToken<AuthSettings>('AuthModule settings');

// The user factory's dependencies are the application's (its UserService), which AuthModule's own
// scope cannot see: they are taken from the root module's, once every provider exists.
function userFinder(lookup: UserLookup, container: Container): UserFinder {
  let find: UserFinder | undefined;
  return (claims, strategy) => {
    find ??= (lookup.useFactory as (...injected: unknown[]) => UserFinder)(
      ...(lookup.inject ?? []).map((entry) =>
        isOptional(entry)
          ? container.has(entry.token)
            ? container.get(entry.token)
            : undefined
          : container.get(entry),
      ),
    );
    return find(claims, strategy);
  };
}

function isOptional(entry: Token | OptionalDependency): entry is OptionalDependency {
  return typeof entry === 'object' && entry !== null && 'optional' in entry && 'token' in entry;
}

/**
 * Who is calling: every controller route needs a user unless it is `@Public()`, found by the
 * default strategy or the ones `@Authenticated(...)` names; 401 `{"error":"unauthenticated"}` with
 * `WWW-Authenticate` otherwise. Provides `Auth` to every module, and states each strategy in the
 * OpenAPI document. Probes (health, metrics) and function routes are never authenticated.
 *
 * @example
 * @Module({ imports: [AuthModule.forRoot({
 *   default: 'jwt',
 *   strategies: { jwt: jwt({ secret: process.env.JWT_SECRET ?? '' }), token: apiTokens() },
 *   user: { inject: [UserService], useFactory: (users: UserService) => (claims) => users.find(claims.sub) },
 * })] })
 * export class AppModule {}
 */
@Module({})
export class AuthModule {
  /** Authentication with `options`' strategies. @example AuthModule.forRoot({ default: 'session', strategies: { session: session() }, user }) */
  static forRoot(options: AuthModuleOptions): DynamicModule {
    checkShape(options);
    return {
      module: AuthModule,
      global: true,
      providers: [
        optionsProvider(AUTH_SETTINGS, options.strategies, (strategies) =>
          checkSettings(options, strategies),
        ),
        {
          provide: Authentication,
          useFactory: (
            settings: AuthSettings,
            logger: Logger,
            container: Container,
            metrics: Metrics | undefined,
          ) => {
            const needsDatabase = [...settings.strategies.values()].some(
              (strategy) => 'issue' in strategy || 'login' in strategy,
            );
            const dataSource = needsDatabase ? postgresOf(container) : undefined;
            for (const strategy of settings.strategies.values())
              strategy.start({ dataSource: () => dataSource?.() ?? postgresOf(container)() });
            const counter = metrics?.counter({
              name: 'keel_auth_failures_total',
              help: 'Requests refused 401, by strategy and reason',
              labelNames: ['strategy', 'reason'],
            });
            return new Authentication({
              settings,
              findUser: userFinder(options.user, container),
              failures: new AuthFailures(logger, counter),
              container,
            });
          },
          inject: [
            AUTH_SETTINGS,
            LOGGER,
            Container as unknown as Token<Container>,
            { token: Metrics, optional: true },
          ],
        },
        { provide: ROUTE_SECURITY, useExisting: Authentication },
        {
          provide: Auth,
          useFactory: (settings: AuthSettings, authentication: Authentication) =>
            new Auth(settings, authentication),
          inject: [AUTH_SETTINGS, Authentication],
        },
      ],
      exports: [Auth, Authentication, ROUTE_SECURITY],
    };
  }
}

// The strategies with a table need the application's PostgreSQL: checked at boot, used once connected.
function postgresOf(container: Container): () => DataSource {
  const { DataSource } = loadTypeOrm();
  if (!container.has(DataSource))
    throw AuthErrors.authNeedsDatabase('session or API token', 'no DatabaseModule provides one');
  const dataSource = container.get(DataSource);
  const { type } = dataSource.options;
  if (type !== 'postgres')
    throw AuthErrors.authNeedsDatabase('session or API token', `the DataSource is of type '${type}'`);
  return () => dataSource;
}

function checkShape(options: AuthModuleOptions): void {
  if (
    typeof options !== 'object' ||
    options === null ||
    typeof options.strategies !== 'object' ||
    options.strategies === null
  )
    throw AuthErrors.invalidStrategy('AuthModule.forRoot', 'give { default, strategies, user }');
  if (typeof options.user?.useFactory !== 'function')
    throw AuthErrors.invalidStrategy(
      'AuthModule.forRoot',
      'user needs a useFactory that returns (claims) => user',
    );
}

function checkSettings(
  options: AuthModuleOptions,
  given: Readonly<Record<string, AuthStrategy>>,
): AuthSettings {
  const strategies = new Map(Object.entries(given));
  for (const [name, strategy] of strategies) {
    if (typeof strategy?.recognise !== 'function')
      throw AuthErrors.invalidStrategy(
        'AuthModule.forRoot',
        `strategies.${name} is not a strategy: make it with jwt(), session() or apiTokens()`,
      );
  }
  const defaults = options.default === undefined ? [] : [options.default].flat();
  for (const name of defaults) {
    if (!strategies.has(name))
      throw AuthErrors.unknownStrategy("AuthModule.forRoot's default", name, [...strategies.keys()]);
  }
  return {
    defaults,
    strategies,
    userId: options.userId ?? ((user) => String((user as { id?: unknown }).id)),
  };
}
