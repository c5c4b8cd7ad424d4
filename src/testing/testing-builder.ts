import { bootParts } from '../application-boot';
import type { ApplicationOptions } from '../application-options';
import type { ModuleImport } from '../container/module-definition';
import type {
  ClassProvider,
  FactoryProvider,
  OptionalDependency,
  ValueProvider,
} from '../container/provider';
import type { Class, Token } from '../container/token';
import { TestingApplication } from './testing-application';

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
   * Boots the application with the overrides, taking `createApplication`'s options; it never
   * listens, and by default (`handleSignals: false`) leaves SIGTERM and SIGINT to the test runner.
   * @example const app = await builder.boot({ logger: false });
   */
  async boot(options: ApplicationOptions = {}): Promise<TestingApplication> {
    const parts = await bootParts(this.#root, { handleSignals: false, ...options }, this.#overrides);
    // A test never runs a command: the application is ready to serve once boot() resolves.
    await parts.bootstrapHooks.run();
    return new TestingApplication(parts);
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
