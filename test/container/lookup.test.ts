import { Injectable } from 'keel';
import { Container } from '../../src/container/container';
import { boot, defineModule } from '../factories/define-module';
import { Clock, Scheduler } from '../factories/container-fixtures';

describe('app.get', () => {
  test('returns the instance the container created and injected', async () => {
    const app = await boot(defineModule('AppModule', { providers: [Scheduler, Clock] }));

    expect(app.get(Clock)).toBeInstanceOf(Clock);
    expect(app.get(Clock)).toBe(app.get(Scheduler).clock);
  });

  test('finds a provider of an imported module, whether or not it is exported', async () => {
    const ClockModule = defineModule('ClockModule', { providers: [Clock] });

    const app = await boot(defineModule('AppModule', { imports: [ClockModule] }));

    expect(app.get(Clock)).toBeInstanceOf(Clock);
  });

  test('a token nothing provides is E_UNKNOWN_TOKEN', async () => {
    const app = await boot(defineModule('AppModule', { providers: [Clock] }));

    expect(() => app.get('mailer')).toThrow(
      expect.objectContaining({
        code: 'E_UNKNOWN_TOKEN',
        message:
          "E_UNKNOWN_TOKEN: no provider for 'mailer' in any module of the application.\n" +
          'Fix: add it to the providers of a module that the root module imports.',
      }),
    );
  });
});

describe('Container.construct', () => {
  test('builds a class that is not a provider once, with dependencies from the root scope', async () => {
    const built: object[] = [];
    @Injectable()
    class Report {
      constructor(readonly scheduler: Scheduler) {
        built.push(this);
      }
    }
    const container = await Container.create(defineModule('AppModule', { providers: [Scheduler, Clock] }));

    const first = container.construct(Report);
    const second = container.construct(Report);

    expect(first).toBeInstanceOf(Report);
    expect(first.scheduler).toBe(container.get(Scheduler));
    expect(second).toBe(first);
    expect(built).toEqual([first]);
  });

  test("returns the provider's own instance for a class the root module provides", async () => {
    const container = await Container.create(defineModule('AppModule', { providers: [Scheduler, Clock] }));

    expect(container.construct(Scheduler)).toBe(container.get(Scheduler));
  });

  test('fails with E_UNKNOWN_DEPENDENCY when the root module cannot see a dependency', async () => {
    const ClockModule = defineModule('ClockModule', { providers: [Clock] });
    const container = await Container.create(defineModule('AppModule', { imports: [ClockModule] }));

    expect(() => container.construct(Scheduler)).toThrow(
      expect.objectContaining({
        code: 'E_UNKNOWN_DEPENDENCY',
        message:
          'E_UNKNOWN_DEPENDENCY: cannot create Scheduler: constructor parameter #0 asks for Clock, which module AppModule cannot see.\n' +
          'Fix: Clock is provided by ClockModule but not exported from it: add it to the exports of ClockModule and import ClockModule into AppModule.\n' +
          'Resolution path: AppModule → Scheduler',
      }),
    );
  });
});
