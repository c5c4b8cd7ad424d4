let mark: {
  shuttingDown(status: ApplicationStatus): void;
  runningCommand(status: ApplicationStatus): void;
};

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

  /**
   * True when the application runs a command (`node dist/main.js migrate`) rather than serving:
   * work that only serving needs, such as connecting the database in the background, is not started.
   * @example if (!status.isRunningCommand) startPolling()
   */
  get isRunningCommand(): boolean {
    return this.#isRunningCommand;
  }

  static {
    mark = {
      shuttingDown: (status) => {
        status.#isShuttingDown = true;
      },
      runningCommand: (status) => {
        status.#isRunningCommand = true;
      },
    };
  }
}

/**
 * Records that the application's shutdown has started; it cannot be undone. @internal the
 * application calls it, as its parts only read the status
 * @example markShuttingDown(status)
 */
export function markShuttingDown(status: ApplicationStatus): void {
  mark.shuttingDown(status);
}

/**
 * Records that the application runs a command and will not serve. @internal `app.run()` calls it
 * @example markRunningCommand(status)
 */
export function markRunningCommand(status: ApplicationStatus): void {
  mark.runningCommand(status);
}
