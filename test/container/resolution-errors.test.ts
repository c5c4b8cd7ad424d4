import { Inject, Injectable, InjectionToken } from 'keel';
import { boot, defineModule } from '../factories/define-module';
import { Clock, Mailer } from '../factories/container-fixtures';

interface PaymentGateway {
  charge(cents: number): Promise<void>;
}

describe('E_UNKNOWN_DEPENDENCY', () => {
  test('names the class, the parameter, the token, the module, the fix and the resolution path', async () => {
    @Injectable()
    class Signup {
      constructor(readonly mailer: Mailer) {}
    }

    await expect(boot(defineModule('AppModule', { providers: [Signup] }))).rejects.toMatchObject({
      code: 'E_UNKNOWN_DEPENDENCY',
      message:
        'E_UNKNOWN_DEPENDENCY: cannot create Signup: constructor parameter #0 asks for Mailer, which module AppModule cannot see.\n' +
        'Fix: add Mailer to the providers of AppModule, or import a module that exports it.\n' +
        'Resolution path: AppModule → Signup',
    });
  });

  test('the resolution path runs from the module through every provider being created', async () => {
    @Injectable()
    class Accounts {
      constructor(
        readonly clock: Clock,
        readonly mailer: Mailer,
      ) {}
    }
    @Injectable()
    class Signup {
      constructor(readonly accounts: Accounts) {}
    }

    await expect(
      boot(defineModule('AppModule', { providers: [Signup, Accounts, Clock] })),
    ).rejects.toMatchObject({
      code: 'E_UNKNOWN_DEPENDENCY',
      message:
        'E_UNKNOWN_DEPENDENCY: cannot create Accounts: constructor parameter #1 asks for Mailer, which module AppModule cannot see.\n' +
        'Fix: add Mailer to the providers of AppModule, or import a module that exports it.\n' +
        'Resolution path: AppModule → Signup → Accounts',
    });
  });

  test("a factory's missing inject entry is named by its index and the token's description", async () => {
    const SMTP_URL = new InjectionToken<string>('SMTP_URL');
    const root = defineModule('MailModule', {
      providers: [{ provide: 'mailer', useFactory: (url: string) => ({ url }), inject: [SMTP_URL] }],
    });

    await expect(boot(root)).rejects.toMatchObject({
      code: 'E_UNKNOWN_DEPENDENCY',
      message:
        "E_UNKNOWN_DEPENDENCY: cannot create 'mailer' (factory): inject[0] asks for InjectionToken(SMTP_URL), which module MailModule cannot see.\n" +
        'Fix: add InjectionToken(SMTP_URL) to the providers of MailModule, or import a module that exports it.\n' +
        "Resolution path: MailModule → 'mailer' (factory)",
    });
  });

  test('a provider exported by a module that is not imported: the fix says to import that module, not to export it', async () => {
    @Injectable()
    class Signup {
      constructor(readonly mailer: Mailer) {}
    }
    const MailModule = defineModule('MailModule', { providers: [Mailer], exports: [Mailer] });
    const SignupModule = defineModule('SignupModule', { providers: [Signup] });
    const root = defineModule('AppModule', { imports: [MailModule, SignupModule] });

    await expect(boot(root)).rejects.toMatchObject({
      code: 'E_UNKNOWN_DEPENDENCY',
      message: expect.stringContaining('import MailModule into SignupModule'),
    });
    await expect(boot(root)).rejects.toMatchObject({
      message: expect.not.stringContaining('not exported'),
    });
  });
});

describe('E_DEPENDENCY_CYCLE', () => {
  // 'orders' and 'invoices' each inject the other.
  @Injectable()
  class Orders {
    constructor(@Inject('invoices') readonly invoices: unknown) {}
  }
  @Injectable()
  class Invoices {
    constructor(@Inject('orders') readonly orders: unknown) {}
  }

  test('names the providers of the cycle, from the first back to itself', async () => {
    const root = defineModule('AppModule', {
      providers: [
        { provide: 'orders', useClass: Orders },
        { provide: 'invoices', useClass: Invoices },
      ],
    });

    await expect(boot(root)).rejects.toMatchObject({
      code: 'E_DEPENDENCY_CYCLE',
      message:
        'E_DEPENDENCY_CYCLE: dependency cycle: Orders → Invoices → Orders.\n' +
        'Fix: break the cycle, for example by moving what Orders and Invoices share into a third provider that both inject.',
    });
  });

  test('leaves out the providers that lead into the cycle', async () => {
    @Injectable()
    class Checkout {
      constructor(@Inject('orders') readonly orders: unknown) {}
    }
    const root = defineModule('AppModule', {
      providers: [
        Checkout,
        { provide: 'orders', useClass: Orders },
        { provide: 'invoices', useClass: Invoices },
      ],
    });

    await expect(boot(root)).rejects.toMatchObject({
      code: 'E_DEPENDENCY_CYCLE',
      message: expect.stringMatching(/^E_DEPENDENCY_CYCLE: dependency cycle: Orders → Invoices → Orders\.\n/),
    });
  });
});

describe('E_UNTYPED_DEPENDENCY', () => {
  test('a parameter typed with an interface names the class and the position', async () => {
    @Injectable()
    class Checkout {
      constructor(
        readonly clock: Clock,
        readonly gateway: PaymentGateway,
      ) {}
    }

    await expect(boot(defineModule('AppModule', { providers: [Checkout, Clock] }))).rejects.toMatchObject({
      code: 'E_UNTYPED_DEPENDENCY',
      message:
        'E_UNTYPED_DEPENDENCY: cannot create Checkout: constructor parameter #1 has no injectable type ' +
        '(an interface, a union, a primitive, or a type-only import leaves none at run time).\n' +
        'Fix: decorate the parameter with @Inject(token), or give it a class type.',
    });
  });

  test('a parameter typed with a primitive is untyped too', async () => {
    @Injectable()
    class Greeter {
      constructor(readonly greeting: string) {}
    }

    await expect(boot(defineModule('AppModule', { providers: [Greeter] }))).rejects.toMatchObject({
      code: 'E_UNTYPED_DEPENDENCY',
      message: expect.stringContaining(
        'cannot create Greeter: constructor parameter #0 has no injectable type',
      ),
    });
  });
});

describe('E_NOT_INJECTABLE', () => {
  test('a class with constructor parameters but no decorator names the class and the fix', async () => {
    class Signup {
      constructor(readonly mailer: Mailer) {}
    }

    await expect(boot(defineModule('AppModule', { providers: [Signup, Mailer] }))).rejects.toMatchObject({
      code: 'E_NOT_INJECTABLE',
      message:
        'E_NOT_INJECTABLE: cannot create Signup: its constructor takes parameters but keel has no record of their types.\n' +
        'Fix: decorate Signup with @Injectable() (or @Controller/@Resource), and compile with emitDecoratorMetadata.',
    });
  });
});
