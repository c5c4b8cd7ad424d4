import { bootParts, type ApplicationParts } from '../application/boot';
import { DATABASE_REDIRECT } from '../database/database-redirect';
import { initializeOnce } from '../database/initialize-once';
import { loadTypeOrm } from '../orm/typeorm';
import { messageOf } from '../errors/describe-value';
import type { ApplicationOptions } from '../application/options';
import type { ModuleImport } from '../container/module-definition';
import type {
  ClassProvider,
  FactoryProvider,
  OptionalDependency,
  ValueProvider,
} from '../container/provider';
import type { Class, Token } from '../container/token';
import { TestDatabase, type TestDatabaseOptions } from './test-database';
import { TestingApplication } from './testing-application';
import { TestingErrors } from '../errors/testing-errors';

/**
 * What replaces the provider of one token: a value, a class built with its own dependencies, or
 * a factory's result. Each returns the builder, to chain the next override or boot.
 */
export interface ProviderOverride<T> {
  /** @example .overrideProvider(Clock).useValue({ now: () => new Date(0) }) */
  useValue(value: Partial<T>): TestingApplicationBuilder;
  /** @example .overrideProvider(Mailer).useClass(RecordingMailer) */
  useClass(type: Class<Partial<T>>): TestingApplicationBuilder;
  /** @example .overrideProvider(Clock).useFactory({ factory: (start: Date) => new FixedClock(start), inject: [START] }) */
  useFactory(factory: {
    factory: (...args: never[]) => Partial<T> | Promise<Partial<T>>;
    inject?: readonly (Token | OptionalDependency)[];
  }): TestingApplicationBuilder;
}

/**
 * Collects provider overrides for one root module, then boots it as a {@link TestingApplication}.
 *
 * @example
 * const app = await createTestingApplication(AppModule).overrideProvider(OrderService).useValue(fake).boot();
 */
export class TestingApplicationBuilder {
  readonly #root: ModuleImport;
  readonly #overrides = new Map<Token, ClassProvider | ValueProvider | FactoryProvider>();
  #testDatabase: TestDatabaseOptions | undefined;

  /** @internal use {@link createTestingApplication} */
  constructor(root: ModuleImport) {
    this.#root = root;
  }

  /**
   * Replaces the provider of `token` wherever the module graph provides it (imported, dynamic and
   * global modules included), so that every consumer receives the replacement. A token no module
   * provides makes `boot()` reject with `E_UNKNOWN_OVERRIDE`.
   * @example builder.overrideProvider(OrderService).useClass(InMemoryOrders)
   */
  overrideProvider<T>(token: Token<T>): ProviderOverride<T> {
    const replace = (provider: ClassProvider | ValueProvider | FactoryProvider): this => {
      this.#overrides.set(token, provider);
      return this;
    };
    return {
      useValue: (value) => replace({ provide: token, useValue: value }),
      useClass: (type) => replace({ provide: token, useClass: type }),
      useFactory: ({ factory, inject }) => replace({ provide: token, useFactory: factory, inject }),
    };
  }

  /**
   * Boots the application on a PostgreSQL database of its own, dropped at `app.close()`: a copy of
   * a template that holds the application's schema (its entities synchronised where its options
   * say so, and its migrations), made once per schema on the server `url` names (else
   * `DATABASE_URL`), or in memory (PGlite) with neither. Only the connection of the options given to
   * `DatabaseModule.forRoot` changes; `boot()` resolves once the application is connected.
   * @example const app = await createTestingApplication(AppModule).withTestDatabase().boot({ logger: false });
   */
  withTestDatabase(options: TestDatabaseOptions = {}): this {
    this.#testDatabase = options;
    return this;
  }

  /**
   * Boots the application with the overrides, taking `createApplication`'s options; it never
   * listens, and by default (`handleSignals: false`) leaves SIGTERM and SIGINT to the test runner.
   * @example const app = await builder.boot({ logger: false });
   */
  async boot(options: ApplicationOptions = {}): Promise<TestingApplication> {
    const settings = { handleSignals: false, ...options };
    if (!this.#testDatabase) return readyToServe(await bootParts(this.#root, settings, this.#overrides));
    const database = new TestDatabase(this.#testDatabase);
    const overrides = new Map(this.#overrides).set(DATABASE_REDIRECT, {
      provide: DATABASE_REDIRECT,
      useValue: database,
    });
    const parts = await bootParts(this.#root, settings, overrides).catch(async (error: unknown) => {
      await database.release();
      throw isRedirectUnknown(error) ? TestingErrors.testDatabaseWithoutModule() : error;
    });
    const app = await readyToServe(parts);
    // A DataSource the test replaced is not keel's to connect.
    if (database.isRedirected) {
      await initializeOnce(app.get(loadTypeOrm().DataSource)).catch(async (error: unknown) => {
        await app.close().catch(() => undefined);
        throw error;
      });
    }
    return app;
  }
}

/**
 * Starts a test of the application rooted at `root`: override providers, then boot.
 *
 * @example
 * import { createTestingApplication } from 'keel/testing';
 * const app = await createTestingApplication(AppModule).overrideProvider(OrderService).useValue(fake).boot({ logger: false });
 * const res = await app.inject({ method: 'GET', url: '/orders/1' });
 */
export function createTestingApplication(root: ModuleImport): TestingApplicationBuilder {
  return new TestingApplicationBuilder(root);
}

// Only DatabaseModule.forRoot provides the token: without it, the override replaces nothing.
function isRedirectUnknown(error: unknown): boolean {
  const { code } = error as { code?: unknown };
  return code === 'E_UNKNOWN_OVERRIDE' && messageOf(error).includes(DATABASE_REDIRECT.description);
}

// A test never runs a command: once boot() resolves, the application serves, its bootstrap hooks run.
async function readyToServe(parts: ApplicationParts): Promise<TestingApplication> {
  const app = new TestingApplication(parts);
  await parts.bootstrapHooks.run().catch(async (error: unknown) => {
    await app.close().catch(() => undefined);
    throw error;
  });
  return app;
}
