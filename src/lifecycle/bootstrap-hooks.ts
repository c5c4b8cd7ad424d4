import { callBootHook } from './lifecycle-hooks';
import type { ApplicationStatus } from './application-status';
import type { Logger } from '../logging/logger';

/** What {@link BootstrapHooks} runs the hooks on, and where it reports a failure nobody awaits. */
export interface BootstrapHookParts {
  readonly instances: () => readonly unknown[];
  readonly status: ApplicationStatus;
  readonly logger: Logger;
  /** Runs once every hook has resolved: the application serves from then on. */
  readonly onDone?: () => void;
}

/**
 * The `onApplicationBootstrap` hooks, run once, when the application is about to serve: by
 * `listen()`, by the first in-process request, or on the turn of the event loop after boot unless
 * `app.run()` has said by then that it runs a command (`routes`, `openapi`, `migrate`), which must
 * not start what a provider starts for serving (pollers, connections, timers).
 *
 * @example
 * const hooks = new BootstrapHooks({ instances: () => container.instances(), status, logger });
 * hooks.startAfterBoot();
 * await hooks.run(); // in listen()
 */
export class BootstrapHooks {
  readonly #parts: BootstrapHookParts;
  #running: Promise<void> | undefined;
  #isDone = false;

  constructor(parts: BootstrapHookParts) {
    this.#parts = parts;
  }

  /** True once every hook has resolved. @example if (hooks.isDone) pipeline.handle(req, res) */
  get isDone(): boolean {
    return this.#isDone;
  }

  /** Runs the hooks, or returns the run already started; rejects with the first hook's error. @example await hooks.run() */
  run(): Promise<void> {
    this.#running ??= callBootHook(this.#parts.instances(), 'onApplicationBootstrap').then(() => {
      this.#isDone = true;
      this.#parts.onDone?.();
    });
    return this.#running;
  }

  /**
   * Starts the hooks on the next turn of the event loop, unless the application runs a command (or
   * is closing) by then. An application that neither listens nor runs a command (a worker) still gets them; a hook
   * that fails there has no caller to reject, so it is logged and the exit code set.
   * @example hooks.startAfterBoot()
   */
  startAfterBoot(): void {
    setImmediate(() => {
      const { status } = this.#parts;
      if (status.isRunningCommand || status.isShuttingDown || this.#running) return;
      this.run().catch((error: unknown) => {
        this.#parts.logger.error({ err: error }, 'onApplicationBootstrap failed');
        process.exitCode = 1;
      });
    });
  }
}
