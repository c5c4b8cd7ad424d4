import type { Logger } from '../logging/logger';

/** Called once every provider exists, module by module (imports first). */
export interface OnModuleInit {
  onModuleInit(): unknown;
}

/**
 * Called after every `onModuleInit`, once the application is about to serve (before `listen()` binds,
 * or its first in-process request); never when `app.run()` runs a command such as `routes`.
 */
export interface OnApplicationBootstrap {
  onApplicationBootstrap(): unknown;
}

/** Called when shutdown starts, before the server stops accepting; receives the signal, if any. */
export interface BeforeApplicationShutdown {
  beforeApplicationShutdown(signal?: string): unknown;
}

/** Called after in-flight requests have finished: close connections here. */
export interface OnApplicationShutdown {
  onApplicationShutdown(signal?: string): unknown;
}

/** The hooks that run while the application boots. */
export type BootHook = 'onModuleInit' | 'onApplicationBootstrap';

/** The hook methods keel calls on providers and controllers that have them. */
export type LifecycleHook = BootHook | 'beforeApplicationShutdown' | 'onApplicationShutdown';

/** One hook that threw (or rejected), and on which instance. */
export interface HookFailure {
  /** The instance's class name, as the log and the shutdown error show it. */
  readonly instance: string;
  readonly hook: LifecycleHook;
  readonly error: unknown;
}

/** What {@link callLifecycleHook} passes on and where it reports. */
export interface HookCall {
  readonly logger: Logger;
  readonly signal?: string | undefined;
}

type HookMethod = (signal?: string) => unknown;

/**
 * Calls a boot hook on each instance that defines it, one after the other, awaiting each; the first
 * that throws rejects, so the application does not boot half-initialised.
 *
 * @example
 * await callBootHook(container.instances(), 'onModuleInit');
 */
export async function callBootHook(instances: readonly unknown[], hook: BootHook): Promise<void> {
  for (const instance of instances) await hookOf(instance, hook)?.call(instance);
}

/**
 * Calls `hook` on each instance that defines it, one after the other, awaiting each, and carries on
 * when one throws: a failing provider must not stop the others from releasing what they hold. Each
 * failure is logged and returned.
 *
 * @example
 * const failures = await callLifecycleHook(instances, 'onApplicationShutdown', { logger, signal: 'SIGTERM' });
 */
export async function callLifecycleHook(
  instances: readonly unknown[],
  hook: LifecycleHook,
  call: HookCall,
): Promise<HookFailure[]> {
  const failures: HookFailure[] = [];
  for (const instance of instances) {
    const method = hookOf(instance, hook);
    if (!method) continue;
    try {
      await method.call(instance, call.signal);
    } catch (error) {
      const failure = { instance: instanceName(instance), hook, error };
      call.logger.error(
        { err: error, hook, instance: failure.instance },
        `${failure.instance}.${hook} failed`,
      );
      failures.push(failure);
    }
  }
  return failures;
}

function hookOf(instance: unknown, hook: LifecycleHook): HookMethod | undefined {
  const method = (instance as Partial<Record<LifecycleHook, unknown>> | null | undefined)?.[hook];
  return typeof method === 'function' ? (method as HookMethod) : undefined;
}

function instanceName(instance: unknown): string {
  const name = (instance as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'an anonymous instance';
}
