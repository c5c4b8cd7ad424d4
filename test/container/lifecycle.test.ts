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
  test('createApplication runs onModuleInit on every instance, imports first, then onApplicationBootstrap', async () => {
    const calls: string[] = [];

    await boot(recordedModules(calls));

    expect(calls).toEqual([
      'feature.onModuleInit',
      'first.onModuleInit',
      'second.onModuleInit',
      'feature.onApplicationBootstrap',
      'first.onApplicationBootstrap',
      'second.onApplicationBootstrap',
    ]);
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
    calls.push('booted');
    await app.close();

    expect(calls).toEqual([
      'database.onModuleInit',
      'cache.onModuleInit started',
      'cache.onModuleInit finished',
      'database.onApplicationBootstrap finished',
      'booted',
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

    await app.close('SIGINT');

    expect(calls).toEqual([
      'shared.onModuleInit',
      'shared.onApplicationBootstrap',
      'shared.beforeApplicationShutdown(SIGINT)',
      'shared.onApplicationShutdown(SIGINT)',
    ]);
  });
});
