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

  /** True from the moment a shutdown starts. @example if (status.isShuttingDown) return ctx.error(503, 'shutting down') */
  get isShuttingDown(): boolean {
    return this.#isShuttingDown;
  }

  /** Records that the shutdown has started; it cannot be undone. @internal the application calls it */
  markShuttingDown(): void {
    this.#isShuttingDown = true;
  }
}
