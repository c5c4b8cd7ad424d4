import {
  Injectable,
  type BeforeApplicationShutdown,
  type Class,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from 'keel';
import { setTimeout as sleep } from 'node:timers/promises';
import { boot, defineModule } from '../factories/define-module';
import { eventually } from '../factories/eventually';

/** A provider class that records each hook it receives as `name.hook(signal)` in `calls`. */
function recorder(name: string, calls: string[]): Class {
  @Injectable()
  class Recorder
    implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
  {
    onModuleInit(): void {
      calls.push(`${name}.onModuleInit`);
    }
    onApplicationBootstrap(): void {
      calls.push(`${name}.onApplicationBootstrap`);
    }
    beforeApplicationShutdown(signal?: string): void {
      calls.push(`${name}.beforeApplicationShutdown(${signal})`);
    }
    onApplicationShutdown(signal?: string): void {
      calls.push(`${name}.onApplicationShutdown(${signal})`);
    }
  }
  return Recorder;
}

/** An application whose root module imports a feature module, each with recorders. */
function recordedModules(calls: string[]): Class {
  const FeatureModule = defineModule('FeatureModule', { providers: [recorder('feature', calls)] });
  return defineModule('AppModule', {
    imports: [FeatureModule],
    providers: [recorder('first', calls), recorder('second', calls)],
  });
}

describe('lifecycle hooks', () => {
  test('createApplication runs onModuleInit on every instance, imports first; listen() runs onApplicationBootstrap before it serves', async () => {
    const calls: string[] = [];

    const app = await boot(recordedModules(calls));
    const initialised = [...calls];
    await app.listen(0, '127.0.0.1');
    await app.close();

    expect(initialised).toEqual(['feature.onModuleInit', 'first.onModuleInit', 'second.onModuleInit']);
    expect(calls.slice(3, 6)).toEqual([
      'feature.onApplicationBootstrap',
      'first.onApplicationBootstrap',
      'second.onApplicationBootstrap',
    ]);
  });

  test('an application that neither listens nor runs a command (a worker) gets onApplicationBootstrap after boot', async () => {
    const calls: string[] = [];

    const app = await boot(recordedModules(calls));
    await eventually(() => expect(calls).toContain('second.onApplicationBootstrap'), {
      within: 2000,
      every: 5,
      what: 'the bootstrap hooks',
    });
    await app.close();
  });

  test('a command run right after boot gets no onApplicationBootstrap hook', async () => {
    const calls: string[] = [];
    const app = await boot(recordedModules(calls));
    const exitCode = process.exitCode;

    await app.run(['node', 'main.js', 'routes']);
    process.exitCode = exitCode;

    expect(calls.filter((call) => call.endsWith('onApplicationBootstrap'))).toEqual([]);
    expect(calls).toContain('second.onApplicationShutdown(undefined)');
  });

  test('close(signal) runs beforeApplicationShutdown then onApplicationShutdown, in reverse order, with the signal', async () => {
    const calls: string[] = [];
    const app = await boot(recordedModules(calls));
    calls.length = 0;

    await app.close('SIGTERM');

    expect(calls).toEqual([
      'second.beforeApplicationShutdown(SIGTERM)',
      'first.beforeApplicationShutdown(SIGTERM)',
      'feature.beforeApplicationShutdown(SIGTERM)',
      'second.onApplicationShutdown(SIGTERM)',
      'first.onApplicationShutdown(SIGTERM)',
      'feature.onApplicationShutdown(SIGTERM)',
    ]);
  });

  test('closing twice runs the shutdown hooks once', async () => {
    const calls: string[] = [];
    const app = await boot(defineModule('AppModule', { providers: [recorder('only', calls)] }));
    calls.length = 0;

    await Promise.all([app.close('SIGTERM'), app.close('SIGINT')]);
    await app.close();

    expect(calls).toEqual(['only.beforeApplicationShutdown(SIGTERM)', 'only.onApplicationShutdown(SIGTERM)']);
  });

  test('an async hook finishes before the next hook starts', async () => {
    const calls: string[] = [];
    @Injectable()
    class Cache implements OnModuleInit, OnApplicationShutdown {
      async onModuleInit(): Promise<void> {
        calls.push('cache.onModuleInit started');
        await sleep(10);
        calls.push('cache.onModuleInit finished');
      }
      async onApplicationShutdown(): Promise<void> {
        calls.push('cache.onApplicationShutdown started');
        await sleep(10);
        calls.push('cache.onApplicationShutdown finished');
      }
    }
    @Injectable()
    class Database implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
      onModuleInit(): void {
        calls.push('database.onModuleInit');
      }
      async onApplicationBootstrap(): Promise<void> {
        await sleep(10);
        calls.push('database.onApplicationBootstrap finished');
      }
      onApplicationShutdown(): void {
        calls.push('database.onApplicationShutdown');
      }
    }

    const app = await boot(defineModule('AppModule', { providers: [Database, Cache] }));
    await app.listen(0, '127.0.0.1');
    calls.push('listening');
    await app.close();

    expect(calls).toEqual([
      'database.onModuleInit',
      'cache.onModuleInit started',
      'cache.onModuleInit finished',
      'database.onApplicationBootstrap finished',
      'listening',
      'cache.onApplicationShutdown started',
      'cache.onApplicationShutdown finished',
      'database.onApplicationShutdown',
    ]);
  });

  test('an instance provided under two tokens receives each hook once', async () => {
    const calls: string[] = [];
    const Recorder = recorder('shared', calls);
    const app = await boot(
      defineModule('AppModule', { providers: [Recorder, { provide: 'alias', useExisting: Recorder }] }),
    );

    await app.listen(0, '127.0.0.1');
    await app.close('SIGINT');

    expect(calls).toEqual([
      'shared.onModuleInit',
      'shared.onApplicationBootstrap',
      'shared.beforeApplicationShutdown(SIGINT)',
      'shared.onApplicationShutdown(SIGINT)',
    ]);
  });
});
