import { Injectable } from 'keel';
import { boot, defineGlobalModule, defineModule } from '../factories/define-module';
import { Clock, Scheduler } from '../factories/container-fixtures';

describe('module scoping', () => {
  test('a module sees its own providers', async () => {
    const app = await boot(defineModule('AppModule', { providers: [Scheduler, Clock] }));

    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
  });

  test('a module sees what its imports export', async () => {
    const ClockModule = defineModule('ClockModule', { providers: [Clock], exports: [Clock] });

    const app = await boot(defineModule('AppModule', { imports: [ClockModule], providers: [Scheduler] }));

    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
  });

  test('a provider exported to two modules is one instance in both', async () => {
    @Injectable()
    class Reminders {
      constructor(readonly clock: Clock) {}
    }
    const ClockModule = defineModule('ClockModule', { providers: [Clock], exports: [Clock] });
    const SchedulingModule = defineModule('SchedulingModule', {
      imports: [ClockModule],
      providers: [Scheduler],
    });
    const RemindersModule = defineModule('RemindersModule', {
      imports: [ClockModule],
      providers: [Reminders],
    });

    const app = await boot(defineModule('AppModule', { imports: [SchedulingModule, RemindersModule] }));

    expect(app.get(Scheduler).clock).toBe(app.get(Reminders).clock);
  });

  test('a provider that is not exported is invisible to the importing module', async () => {
    const ClockModule = defineModule('ClockModule', { providers: [Clock] });
    const root = defineModule('AppModule', { imports: [ClockModule], providers: [Scheduler] });

    await expect(boot(root)).rejects.toMatchObject({
      code: 'E_UNKNOWN_DEPENDENCY',
      message:
        'E_UNKNOWN_DEPENDENCY: cannot create Scheduler: constructor parameter #0 asks for Clock, which module AppModule cannot see.\n' +
        'Fix: Clock is provided by ClockModule but not exported from it: add it to the exports of ClockModule and import ClockModule into AppModule.\n' +
        'Resolution path: AppModule → Scheduler',
    });
  });

  test('exports do not pass through an import that does not re-export them', async () => {
    const ClockModule = defineModule('ClockModule', { providers: [Clock], exports: [Clock] });
    const TimeModule = defineModule('TimeModule', { imports: [ClockModule] });
    const root = defineModule('AppModule', { imports: [TimeModule], providers: [Scheduler] });

    await expect(boot(root)).rejects.toMatchObject({
      code: 'E_UNKNOWN_DEPENDENCY',
      message: expect.stringContaining('asks for Clock, which module AppModule cannot see.'),
    });
  });

  test('re-exporting an imported module passes its exports on to the importer', async () => {
    const ClockModule = defineModule('ClockModule', { providers: [Clock], exports: [Clock] });
    const TimeModule = defineModule('TimeModule', { imports: [ClockModule], exports: [ClockModule] });

    const app = await boot(defineModule('AppModule', { imports: [TimeModule], providers: [Scheduler] }));

    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
  });

  test('re-exporting one imported token passes it on to the importer', async () => {
    const ClockModule = defineModule('ClockModule', { providers: [Clock], exports: [Clock] });
    const TimeModule = defineModule('TimeModule', { imports: [ClockModule], exports: [Clock] });

    const app = await boot(defineModule('AppModule', { imports: [TimeModule], providers: [Scheduler] }));

    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
  });

  test("a module's own provider takes precedence over an imported one with the same token", async () => {
    const local = { zone: 'Europe/Paris' };
    const ClockModule = defineModule('ClockModule', { providers: [Clock], exports: [Clock] });

    const app = await boot(
      defineModule('AppModule', {
        imports: [ClockModule],
        providers: [Scheduler, { provide: Clock, useValue: local }],
      }),
    );

    expect(app.get(Scheduler).clock).toBe(local);
  });
});

describe('global modules', () => {
  test("a @Global() module's exports are visible to modules that do not import it", async () => {
    const ClockModule = defineGlobalModule('ClockModule', { providers: [Clock], exports: [Clock] });
    const SchedulingModule = defineModule('SchedulingModule', { providers: [Scheduler] });

    const app = await boot(defineModule('AppModule', { imports: [SchedulingModule, ClockModule] }));

    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
  });

  test('a dynamic module with global: true is visible to modules that do not import it', async () => {
    const ClockModule = defineModule('ClockModule');
    const SchedulingModule = defineModule('SchedulingModule', { providers: [Scheduler] });

    const app = await boot(
      defineModule('AppModule', {
        imports: [
          SchedulingModule,
          { module: ClockModule, global: true, providers: [Clock], exports: [Clock] },
        ],
      }),
    );

    expect(app.get(Scheduler).clock).toBe(app.get(Clock));
  });

  test('a global module keeps the providers it does not export to itself', async () => {
    const ClockModule = defineGlobalModule('ClockModule', { providers: [Clock] });
    const SchedulingModule = defineModule('SchedulingModule', { providers: [Scheduler] });
    const root = defineModule('AppModule', { imports: [SchedulingModule, ClockModule] });

    await expect(boot(root)).rejects.toMatchObject({
      code: 'E_UNKNOWN_DEPENDENCY',
      message: expect.stringContaining('asks for Clock, which module SchedulingModule cannot see.'),
    });
  });
});
