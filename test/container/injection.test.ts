import { Inject, Injectable, InjectionToken, Optional, type Token } from 'keel';
import { boot, defineModule } from '../factories/define-module';
import { Clock, Mailer } from '../factories/container-fixtures';

interface TimeSource {
  now(): number;
}

interface AppConfig {
  readonly port: number;
}

describe('constructor injection', () => {
  test('constructor parameters are injected by their declared class types, in order', async () => {
    @Injectable()
    class Signup {
      constructor(
        readonly clock: Clock,
        readonly mailer: Mailer,
      ) {}
    }

    const app = await boot(defineModule('AppModule', { providers: [Signup, Mailer, Clock] }));

    expect(app.get(Signup).clock).toBe(app.get(Clock));
    expect(app.get(Signup).mailer).toBe(app.get(Mailer));
  });

  test('@Inject(token) overrides the declared type of the parameter', async () => {
    @Injectable()
    class Scheduler {
      constructor(@Inject(Clock) readonly time: TimeSource) {}
    }

    const app = await boot(defineModule('AppModule', { providers: [Scheduler, Clock] }));

    expect(app.get(Scheduler).time).toBe(app.get(Clock));
  });

  const tokens: [string, Token<string>][] = [
    ['a string', 'greeting'],
    ['a symbol', Symbol('greeting')],
    ['an InjectionToken', new InjectionToken<string>('GREETING')],
  ];

  test.each(tokens)('@Inject injects the value provided under %s token', async (_kind, token) => {
    @Injectable()
    class Greeter {
      constructor(@Inject(token) readonly greeting: string) {}
    }

    const app = await boot(
      defineModule('AppModule', { providers: [Greeter, { provide: token, useValue: 'hello' }] }),
    );

    expect(app.get(Greeter).greeting).toBe('hello');
    expect(app.get(token)).toBe('hello');
  });

  test('a typed InjectionToken carries its value type to app.get', async () => {
    const CONFIG = new InjectionToken<AppConfig>('CONFIG');
    const config: AppConfig = { port: 8080 };

    const app = await boot(defineModule('AppModule', { providers: [{ provide: CONFIG, useValue: config }] }));
    const port: number = app.get(CONFIG).port;

    expect(port).toBe(8080);
  });

  test('a subclass without its own constructor receives the dependencies its base class declares', async () => {
    @Injectable()
    class Notifier {
      constructor(readonly mailer: Mailer) {}
    }
    @Injectable()
    class SignupNotifier extends Notifier {}

    const app = await boot(defineModule('AppModule', { providers: [SignupNotifier, Mailer] }));

    expect(app.get(SignupNotifier).mailer).toBe(app.get(Mailer));
  });
});

describe('@Optional()', () => {
  test('an optional parameter is undefined when nothing provides its token', async () => {
    @Injectable()
    class Signup {
      constructor(
        readonly clock: Clock,
        @Optional() readonly mailer?: Mailer,
      ) {}
    }

    const app = await boot(defineModule('AppModule', { providers: [Signup, Clock] }));

    expect(app.get(Signup).clock).toBe(app.get(Clock));
    expect(app.get(Signup).mailer).toBeUndefined();
  });

  test('an optional parameter receives the instance when its token is provided', async () => {
    @Injectable()
    class Signup {
      constructor(@Optional() readonly mailer?: Mailer) {}
    }

    const app = await boot(defineModule('AppModule', { providers: [Signup, Mailer] }));

    expect(app.get(Signup).mailer).toBe(app.get(Mailer));
  });

  test('@Optional() combines with @Inject(token)', async () => {
    @Injectable()
    class Signup {
      constructor(@Optional() @Inject('welcome-text') readonly welcome?: string) {}
    }

    const app = await boot(defineModule('AppModule', { providers: [Signup] }));

    expect(app.get(Signup).welcome).toBeUndefined();
  });
});
