import type { Request } from 'express';
import type { Container } from '../container/container';
import type { Class } from '../container/token';
import { repositoryToken } from '../database/inject-repository';
import { AuthErrors } from '../errors/auth-errors';
import { HookErrors } from '../errors/hook-errors';
import type { AuthUser } from '../http/auth-user';
import { authenticateAs, type Context } from '../http/context';
import type { PreparedHandler } from '../http/exchange';
import { isThenable } from '../http/thenable';
import { MetadataKey } from '../metadata/keys';
import { loadTypeOrm } from '../orm/typeorm';
import type { RouteSecurity, RouteSecuritySource } from '../openapi/route-security';
import type { RouteDefinition } from '../routing/route';
import type { WrappedRoute } from '../routing/route-endpoint';
import type { AuthFailures } from './auth-failures';
import { Policies, type CanRecord } from './policies';
import type { AuthClaims, AuthStrategy, Recognition } from './strategy';

/** `AuthModule.forRoot`'s options, checked. @internal */
export interface AuthSettings {
  /** The strategies of routes that name none; empty: such routes are open. */
  readonly defaults: readonly string[];
  readonly strategies: ReadonlyMap<string, AuthStrategy>;
  /** The user's id, as sessions and API tokens keep it. */
  readonly userId: (user: AuthUser) => string;
}

/** Finds the user named by a strategy's claims; null or undefined: no such user. */
export type UserFinder = (claims: AuthClaims, strategy: string) => unknown;

interface RoutePlan {
  readonly strategies: readonly (readonly [string, AuthStrategy])[];
  readonly can: CanRecord | undefined;
}

// What a 401 of a route says: its challenge, the strategies it tried, the route.
interface Refusal {
  readonly challenge: string;
  readonly label: string;
  readonly route: string;
}

interface Repository {
  findOneBy(where: Record<string, unknown>): Promise<unknown>;
}

interface EntitySource {
  getRepository(entity: Class): unknown;
  getMetadata(entity: Class): { readonly primaryColumns: readonly { readonly propertyName: string }[] };
}

/**
 * Authentication and `@Can` as each route needs them, decided once at boot: a controller route
 * (not a probe, not `@Public()`) runs its strategies (`@Authenticated`'s, else the default), then
 * its policy, before its guards; every other route keeps its handler untouched. @internal
 *
 * @example
 * const call = authentication.wrap(route, handler);
 */
export class Authentication implements RouteSecuritySource {
  readonly #settings: AuthSettings;
  readonly #findUser: UserFinder;
  readonly #failures: AuthFailures;
  readonly #container: Container;
  readonly #abilities = new WeakMap<Request, readonly string[]>();
  #policies: Policies | undefined;

  constructor(parts: {
    settings: AuthSettings;
    findUser: UserFinder;
    failures: AuthFailures;
    container: Container;
  }) {
    this.#settings = parts.settings;
    this.#findUser = parts.findUser;
    this.#failures = parts.failures;
    this.#container = parts.container;
  }

  /** The application's policies, gathered on first use (every provider exists by then). */
  get policies(): Policies {
    this.#policies ??= new Policies(this.#container.instances());
    return this.#policies;
  }

  /** Whether the request's API token (if it came with one) holds `ability`. */
  tokenCan(req: Request, ability: string): boolean {
    const abilities = this.#abilities.get(req);
    return abilities === undefined || abilities.includes('*') || abilities.includes(ability);
  }

  /** `handler` behind the route's authentication and policy, or as it is when it has neither. */
  readonly wrap = (route: WrappedRoute, handler: PreparedHandler): PreparedHandler => {
    const plan = this.#planOf(route.metadata, route.isController === true, route.description);
    if (!plan) return handler;
    const challenge = [...new Set(plan.strategies.map(([, strategy]) => strategy.challenge))].join(', ');
    const label = plan.strategies.map(([name]) => name).join(',');
    const authorize = plan.can && this.#authorizer(plan.can);
    const refusal: Refusal = { challenge, label, route: route.description };
    const proceed = (ctx: Context, req: Request, user: AuthUser): unknown => {
      authenticateAs(ctx, user);
      if (!authorize) return handler(ctx, req);
      return authorize(ctx, user).then(() => handler(ctx, req));
    };
    // Synchronous as far as the strategies and the user factory are: a JWT seen before and a user
    // made from its claims cost the request no promise and no turn.
    return (ctx, req) => {
      const user = this.#authenticate(req, plan, refusal, 0);
      if (isThenable(user)) return user.then((found) => proceed(ctx, req, found as AuthUser));
      return proceed(ctx, req, user);
    };
  };

  /** How the OpenAPI document states `route`'s security; undefined when it is open. */
  securityOf(route: RouteDefinition): RouteSecurity | undefined {
    const plan = this.#planOf(route.hooks?.metadata, route.hooks !== undefined, route.source);
    if (!plan) return undefined;
    return {
      schemes: Object.fromEntries(plan.strategies.map(([name, strategy]) => [name, strategy.scheme])),
      isAuthorized: plan.can !== undefined,
      loadsRecord: plan.can?.from !== undefined,
    };
  }

  #planOf(
    metadata: ReadonlyMap<unknown, unknown> | undefined,
    isController: boolean,
    description: string,
  ): RoutePlan | undefined {
    if (!isController || !metadata || metadata.get(MetadataKey.probeRoute) === true) return undefined;
    const can = metadata.get(MetadataKey.authCan) as CanRecord | undefined;
    const named = metadata.get(MetadataKey.authStrategies) as readonly string[] | undefined;
    const names = metadata.get(MetadataKey.authPublic) === true ? [] : (named ?? this.#settings.defaults);
    if (names.length === 0) {
      if (can) throw AuthErrors.canWithoutUser(description);
      return undefined;
    }
    const { strategies } = this.#settings;
    return {
      strategies: names.map((name) => {
        const strategy = strategies.get(name);
        if (!strategy) throw AuthErrors.unknownStrategy(description, name, [...strategies.keys()]);
        return [name, strategy] as const;
      }),
      can,
    };
  }

  // The first strategy that recognises the request's credentials decides; none: 401. Strategies
  // from `from` on are asked in order, each awaited only when it answers with a promise.
  #authenticate(req: Request, plan: RoutePlan, refusal: Refusal, from: number): AuthUser | Promise<AuthUser> {
    for (let index = from; index < plan.strategies.length; index += 1) {
      const [name, strategy] = plan.strategies[index] as readonly [string, AuthStrategy];
      const seen = strategy.recognise(req);
      if (isThenable(seen))
        return seen.then((recognised) =>
          recognised === undefined
            ? this.#authenticate(req, plan, refusal, index + 1)
            : this.#userOf(recognised, name, req, refusal),
        );
      if (seen !== undefined) return this.#userOf(seen, name, req, refusal);
    }
    throw this.#failures.refuse({ ...refusal, strategy: refusal.label, reason: 'missing' });
  }

  // The user a strategy's verdict names, through the application's factory; a failure or no user: 401.
  #userOf(
    seen: Exclude<Recognition, undefined>,
    name: string,
    req: Request,
    refusal: Refusal,
  ): AuthUser | Promise<AuthUser> {
    if ('failure' in seen) throw this.#failures.refuse({ ...refusal, strategy: name, reason: seen.failure });
    const accept = (user: unknown): AuthUser => {
      if (user === null || user === undefined)
        throw this.#failures.refuse({ ...refusal, strategy: name, reason: 'unknown_user' });
      if (seen.abilities) this.#abilities.set(req, seen.abilities);
      return user as AuthUser;
    };
    const found = this.#findUser(seen.claims, name);
    return isThenable(found) ? Promise.resolve(found).then(accept) : accept(found);
  }

  #authorizer({ entity, action, from }: CanRecord): (ctx: Context, user: AuthUser) => Promise<void> {
    const allows = this.policies.methodOf(entity, action);
    if (from === undefined)
      return async (_ctx, user) => {
        if (!(await allows(user))) throw HookErrors.forbidden();
      };
    let repository: Repository | undefined;
    let key: string | undefined;
    return async (ctx, user) => {
      repository ??= this.#repositoryOf(entity);
      // Read from the DataSource: the repository may be DatabaseModule's guarded proxy of it.
      key ??= this.#dataSource().getMetadata(entity).primaryColumns[0]?.propertyName ?? 'id';
      const record = await repository.findOneBy({ [key]: ctx.param(from) });
      if (record === null || record === undefined) throw AuthErrors.recordNotFound();
      if (!(await allows(user, record))) throw HookErrors.forbidden();
    };
  }

  // The repository `DatabaseModule.forFeature` provides, else the DataSource's own.
  #repositoryOf(entity: Class): Repository {
    const token = repositoryToken(entity);
    if (this.#container.has(token)) return this.#container.get(token) as Repository;
    return this.#dataSource().getRepository(entity) as unknown as Repository;
  }

  #dataSource(): EntitySource {
    return this.#container.get(loadTypeOrm().DataSource) as unknown as EntitySource;
  }
}
