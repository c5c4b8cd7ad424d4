import { Inject, Injectable } from 'keel';
import { boot, defineModule } from '../factories/define-module';
import { Clock } from '../factories/container-fixtures';

@Injectable()
class FixedClock extends Clock {
  override now(): number {
    return 0;
  }
}

@Injectable()
class Greeter {
  constructor(readonly clock: Clock) {}
}

describe('provider kinds', () => {
  test('a class listed in providers is constructed and provided under itself', async () => {
    const app = await boot(defineModule('AppModule', { providers: [Clock] }));

    expect(app.get(Clock)).toBeInstanceOf(Clock);
  });

  test('an undecorated class without constructor parameters can be a provider', async () => {
    class Counter {
      count = 0;
    }

    const app = await boot(defineModule('AppModule', { providers: [Counter] }));

    expect(app.get(Counter)).toEqual({ count: 0 });
  });

  test('useClass provides an instance of the given class under the token', async () => {
    const app = await boot(
      defineModule('AppModule', { providers: [{ provide: Clock, useClass: FixedClock }] }),
    );

    expect(app.get(Clock)).toBeInstanceOf(FixedClock);
    expect(app.get(Clock).now()).toBe(0);
  });

  test('useClass constructs the class with its own dependencies', async () => {
    const app = await boot(
      defineModule('AppModule', { providers: [{ provide: 'greeter', useClass: Greeter }, Clock] }),
    );

    expect(app.get<Greeter>('greeter').clock).toBe(app.get(Clock));
  });

  test('useValue provides the very value given', async () => {
    const settings = { port: 8080 };

    const app = await boot(
      defineModule('AppModule', { providers: [{ provide: 'settings', useValue: settings }] }),
    );

    expect(app.get('settings')).toBe(settings);
  });

  test('useFactory provides what the factory returns, called with the instances listed in inject', async () => {
    const received: unknown[] = [];
    const app = await boot(
      defineModule('AppModule', {
        providers: [
          {
            provide: 'stamp',
            useFactory: (clock: Clock, prefix: string) => {
              received.push(clock, prefix);
              return `${prefix}${clock.now()}`;
            },
            inject: [Clock, 'prefix'],
          },
          Clock,
          { provide: 'prefix', useValue: 't=' },
        ],
      }),
    );

    expect(app.get('stamp')).toBe('t=1700000000000');
    expect(received).toEqual([app.get(Clock), 't=']);
  });

  test('an optional inject entry passes undefined to the factory when nothing provides the token', async () => {
    const received: unknown[] = [];
    const app = await boot(
      defineModule('AppModule', {
        providers: [
          {
            provide: 'report',
            useFactory: (clock: Clock, metrics: unknown) => {
              received.push(clock, metrics);
              return 'report';
            },
            inject: [Clock, { token: 'metrics', optional: true }],
          },
          Clock,
        ],
      }),
    );

    expect(app.get('report')).toBe('report');
    expect(received).toEqual([app.get(Clock), undefined]);
  });

  test('an optional inject entry passes the instance when the token is provided', async () => {
    const metrics = { counters: 0 };
    const app = await boot(
      defineModule('AppModule', {
        providers: [
          { provide: 'metrics', useValue: metrics },
          {
            provide: 'report',
            useFactory: (m: unknown) => ({ m }),
            inject: [{ token: 'metrics', optional: true }],
          },
        ],
      }),
    );

    expect(app.get<{ m: unknown }>('report').m).toBe(metrics);
  });

  test('useExisting makes the alias resolve to the very same instance as the original', async () => {
    @Injectable()
    class Scheduler {
      constructor(@Inject('clock') readonly clock: Clock) {}
    }

    const app = await boot(
      defineModule('AppModule', { providers: [Scheduler, { provide: 'clock', useExisting: Clock }, Clock] }),
    );

    expect(app.get('clock')).toBe(app.get(Clock));
    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
  });
});

describe('singletons', () => {
  test('a provider is created once and the same instance is injected into every consumer', async () => {
    const created: object[] = [];
    @Injectable()
    class Database {
      constructor() {
        created.push(this);
      }
    }
    @Injectable()
    class Orders {
      constructor(readonly db: Database) {}
    }
    @Injectable()
    class Invoices {
      constructor(readonly db: Database) {}
    }

    const app = await boot(defineModule('AppModule', { providers: [Orders, Invoices, Database] }));

    expect(created).toHaveLength(1);
    expect(app.get(Orders).db).toBe(created[0]);
    expect(app.get(Invoices).db).toBe(created[0]);
    expect(app.get(Database)).toBe(created[0]);
  });

  test('a factory is called once however many consumers inject its token', async () => {
    let calls = 0;
    @Injectable()
    class Orders {
      constructor(@Inject('pool') readonly pool: object) {}
    }
    @Injectable()
    class Invoices {
      constructor(@Inject('pool') readonly pool: object) {}
    }

    const app = await boot(
      defineModule('AppModule', {
        providers: [Orders, Invoices, { provide: 'pool', useFactory: () => ({ id: ++calls }) }],
      }),
    );

    expect(calls).toBe(1);
    expect(app.get(Orders).pool).toBe(app.get(Invoices).pool);
  });
});
