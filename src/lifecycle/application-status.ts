import { InjectionToken } from '../container/token';
import type { Logger } from '../logging/logger';

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
  readonly #isShuttingDown: () => boolean;

  /** @internal the application creates the one instance, reading its own state */
  constructor(isShuttingDown: () => boolean) {
    this.#isShuttingDown = isShuttingDown;
  }

  /** True from the moment a shutdown starts. @example if (status.isShuttingDown) return ctx.error(503, 'shutting down') */
  get isShuttingDown(): boolean {
    return this.#isShuttingDown();
  }
}

/**
 * The application's logger, injectable in every module.
 *
 * @example
 * constructor(@Inject(LOGGER) private readonly logger: Logger) {}
 */
export const LOGGER = new InjectionToken<Logger>('LOGGER');
