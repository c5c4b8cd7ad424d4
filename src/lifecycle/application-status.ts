/**
 * What a running application knows about itself and lets its parts read: whether it is shutting
 * down. Injectable in every module, so a readiness check can answer 503 from the first moment of a
 * shutdown, before any hook runs.
 *
 * @example
 * @Injectable()
 * class Gate { constructor(private readonly status: ApplicationStatus) {} }
 */
export class ApplicationStatus {
  #isShuttingDown = false;
  #isRunningCommand = false;

  /**
   * @param shutdownTimeoutMs how long a shutdown gives the work in flight (requests, jobs) to finish
   */
  constructor(readonly shutdownTimeoutMs = 10_000) {}

  /** True from the moment a shutdown starts. @example if (status.isShuttingDown) return ctx.error(503, 'shutting down') */
  get isShuttingDown(): boolean {
    return this.#isShuttingDown;
  }

  /** Records that the shutdown has started; it cannot be undone. @internal the application calls it */
  markShuttingDown(): void {
    this.#isShuttingDown = true;
  }

  /**
   * True when the application runs a command (`node dist/main.js migrate`) rather than serving:
   * work that only serving needs, such as connecting the database in the background, is not started.
   * @example if (!status.isRunningCommand) startPolling()
   */
  get isRunningCommand(): boolean {
    return this.#isRunningCommand;
  }

  /** Records that the application runs a command and will not serve. @internal `app.run()` calls it */
  markRunningCommand(): void {
    this.#isRunningCommand = true;
  }
}
