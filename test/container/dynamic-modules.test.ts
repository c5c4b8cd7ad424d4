import { Inject, Injectable, InjectionToken, Module, type DynamicModule } from 'keel';
import { boot, defineModule } from '../factories/define-module';
import { Clock } from '../factories/container-fixtures';

const ZONE = new InjectionToken<string>('ZONE');

@Module({ providers: [Clock], exports: [Clock] })
class ClockModule {
  static withZone(zone: string): DynamicModule {
    return { module: ClockModule, providers: [{ provide: ZONE, useValue: zone }], exports: [ZONE] };
  }
}

@Injectable()
class Scheduler {
  constructor(
    readonly clock: Clock,
    @Inject(ZONE) readonly zone: string,
  ) {}
}

describe('dynamic modules', () => {
  test("a dynamic module's providers and exports are merged with the class's own @Module metadata", async () => {
    const app = await boot(
      defineModule('AppModule', { imports: [ClockModule.withZone('Asia/Tokyo')], providers: [Scheduler] }),
    );

    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
    expect(app.get(Scheduler).zone).toBe('Asia/Tokyo');
  });

  test("a dynamic module's imports are merged too, and it can export what they export", async () => {
    const ZoneModule = defineModule('ZoneModule', {
      providers: [{ provide: ZONE, useValue: 'UTC+1' }],
      exports: [ZONE],
    });
    const TimeModule = defineModule('TimeModule', { providers: [Clock], exports: [Clock] });

    const app = await boot(
      defineModule('AppModule', {
        imports: [{ module: TimeModule, imports: [ZoneModule], exports: [ZONE] }],
        providers: [Scheduler],
      }),
    );

    expect(app.get(Scheduler).zone).toBe('UTC+1');
    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
  });

  test('a dynamic module needs no @Module() on its class', async () => {
    class PlainModule {
      readonly kind = 'plain';
    }

    const app = await boot(
      defineModule('AppModule', {
        imports: [
          {
            module: PlainModule,
            providers: [{ provide: ZONE, useValue: 'UTC' }, Clock],
            exports: [ZONE, Clock],
          },
        ],
        providers: [Scheduler],
      }),
    );

    expect(app.get(Scheduler).zone).toBe('UTC');
  });

  test('a dynamic module can be the root module', async () => {
    const app = await boot({
      module: defineModule('AppModule'),
      imports: [ClockModule.withZone('UTC')],
      providers: [Scheduler],
    });

    expect(app.get(Scheduler).zone).toBe('UTC');
  });

  test('an imported dynamic module can be re-exported by its class', async () => {
    const TimeModule = defineModule('TimeModule', {
      imports: [ClockModule.withZone('America/Lima')],
      exports: [ClockModule],
    });

    const app = await boot(defineModule('AppModule', { imports: [TimeModule], providers: [Scheduler] }));

    expect(app.get(Scheduler).zone).toBe('America/Lima');
    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
  });
});
