import type { NextFunction, Request, Response } from 'express';
import {
  APP_GUARD,
  Controller,
  Get,
  UseGuards,
  type CanActivate,
  Inject,
  Injectable,
  InjectionToken,
  Module,
  createApplication,
  type MiddlewareClass,
} from 'keel';
import { createTestingApplication, type TestingApplication } from 'keel/testing';

@Injectable()
class Clock {
  now(): string {
    return 'real time';
  }
}

const GREETING = new InjectionToken<string>('GREETING');

@Module({ providers: [Clock, { provide: GREETING, useValue: 'hello' }], exports: [Clock, GREETING] })
class TimeModule {}

@Injectable()
class Greeter {
  constructor(
    private readonly clock: Clock,
    @Inject(GREETING) private readonly greeting: string,
  ) {}
  greet(): string {
    return `${this.greeting} at ${this.clock.now()}`;
  }
}

@Controller('greeting')
class GreetingController {
  constructor(private readonly greeter: Greeter) {}
  @Get() show() {
    return { text: this.greeter.greet() };
  }
}

@Module({ imports: [TimeModule], controllers: [GreetingController], providers: [Greeter] })
class AppModule {}

const apps: TestingApplication[] = [];
afterEach(() => Promise.all(apps.splice(0).map((app) => app.close())));

async function boot(
  configure: (builder: ReturnType<typeof createTestingApplication>) => typeof builder = (b) => b,
): Promise<TestingApplication> {
  const app = await configure(createTestingApplication(AppModule)).boot({ logger: false });
  apps.push(app);
  return app;
}

async function greeting(app: TestingApplication): Promise<unknown> {
  const res = await app.inject('/greeting');
  expect(res.statusCode).toBe(200);
  return res.json<{ text: string }>().text;
}

test('re-providing a service in a wrapping module reaches app.get but not the controller; overrideProvider reaches both', async () => {
  const fake = { now: () => 'fake time' };
  @Module({ imports: [AppModule], providers: [{ provide: Clock, useValue: fake }] })
  class WrappingModule {}
  const wrapped = await createApplication(WrappingModule, { logger: false, handleSignals: false });
  try {
    expect(wrapped.get(Clock)).toBe(fake);
    expect(wrapped.get(Greeter).greet()).toBe('hello at real time');
  } finally {
    await wrapped.close();
  }

  const app = await boot((b) => b.overrideProvider(Clock).useValue(fake));
  expect(app.get(Clock)).toBe(fake);
  expect(await greeting(app)).toBe('hello at fake time');
});

test('an override of a provider in the root module reaches the controller', async () => {
  const app = await boot((b) => b.overrideProvider(Greeter).useValue({ greet: () => 'stubbed' }));
  expect(await greeting(app)).toBe('stubbed');
});

test('useClass builds the replacement with its own dependencies, in the scope of the module that provided the token', async () => {
  @Injectable()
  class LoudClock {
    constructor(@Inject(GREETING) private readonly greeting: string) {}
    now(): string {
      return `${this.greeting.toUpperCase()} O'CLOCK`;
    }
  }
  const app = await boot((b) => b.overrideProvider(Clock).useClass(LoudClock));
  expect(app.get(Clock)).toBeInstanceOf(LoudClock);
  expect(await greeting(app)).toBe("hello at HELLO O'CLOCK");
});

test('useFactory receives its inject list and may be async; an InjectionToken can be overridden', async () => {
  const app = await boot((b) =>
    b
      .overrideProvider(GREETING)
      .useValue('bonjour')
      .overrideProvider(Clock)
      .useFactory({
        factory: async (greeting: string) => ({ now: () => `${greeting.length} letters` }),
        inject: [GREETING],
      }),
  );
  expect(app.get(GREETING)).toBe('bonjour');
  expect(await greeting(app)).toBe('bonjour at 7 letters');
});

test('overriding a token no module provides is a boot error naming it', async () => {
  const NOWHERE = new InjectionToken<string>('NOWHERE');
  @Injectable()
  class Unused {}
  await expect(boot((b) => b.overrideProvider(NOWHERE).useValue('x'))).rejects.toMatchObject({
    code: 'E_UNKNOWN_OVERRIDE',
    message: expect.stringContaining('InjectionToken(NOWHERE)'),
  });
  await expect(boot((b) => b.overrideProvider(Unused).useValue({}))).rejects.toThrow(
    /E_UNKNOWN_OVERRIDE: overrideProvider\(Unused\)/,
  );
});

test('an @Injectable() middleware class given to app.use is built from its override', async () => {
  @Injectable()
  class StampMiddleware implements MiddlewareClass {
    use(_req: Request, res: Response, next: NextFunction): void {
      res.setHeader('X-Stamp', 'real');
      next();
    }
  }
  class FakeStamp implements MiddlewareClass {
    use(_req: Request, res: Response, next: NextFunction): void {
      res.setHeader('X-Stamp', 'fake');
      next();
    }
  }
  const real = await boot();
  real.use(StampMiddleware);
  expect((await real.inject('/greeting')).headers['x-stamp']).toBe('real');

  const app = await boot((b) => b.overrideProvider(StampMiddleware).useClass(FakeStamp));
  app.use(StampMiddleware);
  expect((await app.inject('/greeting')).headers['x-stamp']).toBe('fake');
});

@Injectable()
class DenyAll implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

class AllowAll implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Controller('guarded')
@UseGuards(DenyAll)
class GuardedController {
  @Get() show() {
    return { through: true };
  }
}

test('a guard named by @UseGuards, provided nowhere, is built from its override', async () => {
  @Module({ controllers: [GuardedController] })
  class GuardedModule {}
  const real = await createTestingApplication(GuardedModule).boot({ logger: false });
  apps.push(real);
  expect((await real.inject('/guarded')).statusCode).toBe(403);

  const app = await createTestingApplication(GuardedModule)
    .overrideProvider(DenyAll)
    .useClass(AllowAll)
    .boot({ logger: false });
  apps.push(app);
  const res = await app.inject('/guarded');
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ through: true });
});

test('an APP_GUARD provided as useClass in an imported module is replaced by an override of its class', async () => {
  @Module({ providers: [{ provide: APP_GUARD, useClass: DenyAll }] })
  class SecurityModule {}
  @Module({ imports: [SecurityModule, AppModule] })
  class Root {}
  const real = await createTestingApplication(Root).boot({ logger: false });
  apps.push(real);
  expect((await real.inject('/greeting')).statusCode).toBe(403);

  const app = await createTestingApplication(Root)
    .overrideProvider(DenyAll)
    .useValue({ canActivate: () => true })
    .boot({ logger: false });
  apps.push(app);
  expect((await app.inject('/greeting')).statusCode).toBe(200);
});
