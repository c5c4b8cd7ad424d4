/** Called once every provider exists, module by module (imports first). */
export interface OnModuleInit {
  onModuleInit(): unknown;
}

/** Called after every `onModuleInit`, before the application serves. */
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

/** The hook methods keel calls on providers and controllers that have them. */
export type LifecycleHook =
  'onModuleInit' | 'onApplicationBootstrap' | 'beforeApplicationShutdown' | 'onApplicationShutdown';

/** Calls `hook` on each instance that defines it, one after the other, awaiting each. */
export async function callLifecycleHook(
  instances: readonly unknown[],
  hook: LifecycleHook,
  signal?: string,
): Promise<void> {
  for (const instance of instances) {
    const method = (instance as Partial<Record<LifecycleHook, (signal?: string) => unknown>> | null)?.[hook];
    if (typeof method === 'function') await method.call(instance, signal);
  }
}
