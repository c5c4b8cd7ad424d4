import type { DynamicModule } from '../container/module-definition';
import { Module } from '../decorators/module';
import { APP_GUARD, APP_MIDDLEWARE } from '../hooks/hook-tokens';
import { createCsrfTokens } from './csrf-tokens';
import { createSessionMiddleware } from './session-middleware';
import { CsrfGuard } from './csrf-guard';
import { SESSION_KEYS } from './session-keys';
import { SessionErrors } from '../errors/session-errors';
import type { SessionModuleOptions, SessionSecret } from './session-options';

const DEFAULT_COOKIE = 'keel.session';

/**
 * Sessions for HTML forms: `ctx.session` kept in a signed cookie (no store to share between
 * replicas), `ctx.flash`, and CSRF protection on every unsafe method outside `@ApiResource`
 * controllers and `@SkipCsrf()` routes, with `csrfToken` and `csrfField()` in every template.
 *
 * @example
 * @Module({ imports: [SessionModule.forRoot({ secret: () => process.env.SESSION_SECRET ?? '' })] })
 * export class AppModule {}
 */
@Module({})
export class SessionModule {
  /** Sessions signed with the key(s) `options.secret` gives at boot. @example SessionModule.forRoot({ inject: [Env], secret: (env: Env) => env.SESSION_SECRET }) */
  static forRoot(options: SessionModuleOptions): DynamicModule {
    const csrf = createCsrfTokens();
    const secret = options.secret as (...injected: unknown[]) => SessionSecret | Promise<SessionSecret>;
    return {
      module: SessionModule,
      providers: [
        {
          provide: SESSION_KEYS,
          useFactory: async (...injected: unknown[]) => signingKeys(await secret(...injected)),
          inject: options.inject ?? [],
        },
        {
          provide: APP_MIDDLEWARE,
          useFactory: (keys: string[]) =>
            createSessionMiddleware({
              keys,
              cookieName: options.cookieName ?? DEFAULT_COOKIE,
              maxAgeMs: options.maxAgeMs,
              csrf,
            }),
          inject: [SESSION_KEYS],
        },
        { provide: APP_GUARD, useValue: new CsrfGuard(csrf) },
      ],
    };
  }
}

function signingKeys(secret: SessionSecret): string[] {
  const keys = typeof secret === 'string' ? [secret] : [...secret];
  if (keys.length === 0 || keys.some((key) => typeof key !== 'string' || key === '')) {
    throw SessionErrors.invalidSecret();
  }
  return keys;
}
