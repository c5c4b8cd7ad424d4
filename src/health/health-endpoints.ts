import type { Context } from '../http/context';
import type { ApplicationStatus } from '../lifecycle/application-status';
import type { Logger } from '../logging/logger';
import type { HealthSettings } from './health-options';
import { MIGRATING, ReadinessCheck, type DataSourceResolver } from './readiness-check';

/** What the two health endpoints answer from. */
export interface HealthEndpointParts {
  /** Called at each readiness check for the `DataSource`. */
  readonly resolveDataSource: DataSourceResolver;
  readonly status: ApplicationStatus;
  readonly logger: Logger;
  readonly settings: HealthSettings;
}

/**
 * The liveness and readiness answers, shared by `registerHealthRoutes` and `HealthModule`.
 * Readiness changes are logged once each (not at every probe), with the driver's reason even when
 * the answer hides it.
 *
 * @example
 * router.get('/health', (ctx) => endpoints.liveness(ctx)).get('/health/ready', (ctx) => endpoints.readiness(ctx));
 */
export class HealthEndpoints {
  readonly #parts: HealthEndpointParts;
  readonly #readiness: ReadinessCheck;
  #wasReady: boolean | undefined;

  constructor(parts: HealthEndpointParts) {
    this.#parts = parts;
    this.#readiness = new ReadinessCheck(parts.resolveDataSource, parts.settings.timeoutMs);
  }

  /** 200 `{"status":"ok"}` while the process runs; never touches the database. @example endpoints.liveness(ctx) */
  liveness(ctx: Context): void {
    ctx.header('Cache-Control', 'no-store');
    ctx.json(200, { status: 'ok' });
  }

  /** 200 `{"status":"ready","db":"connected"}`, or 503 `{"status":"error","db":"<reason>"}`. @example await endpoints.readiness(ctx) */
  async readiness(ctx: Context): Promise<void> {
    const { status, settings } = this.#parts;
    const checked = status.isShuttingDown ? undefined : await this.#readiness.check();
    // Read again after the check: a shutdown may have started while it ran.
    const report = !checked || status.isShuttingDown ? { isReady: false, reason: 'shutting down' } : checked;
    this.#logChange(report.isReady, report.reason);
    ctx.header('Cache-Control', 'no-store');
    if (report.isReady) return ctx.json(200, { status: 'ready', db: report.reason });
    // "migrating" and "shutting down" say what the application is doing, nothing of the database.
    const isPublic = status.isShuttingDown || report.reason === MIGRATING;
    const shown = settings.exposeReason || isPublic ? report.reason : 'unavailable';
    ctx.json(503, { status: 'error', db: shown });
  }

  #logChange(isReady: boolean, reason: string): void {
    if (isReady === this.#wasReady) return;
    this.#wasReady = isReady;
    if (isReady) this.#parts.logger.info({ db: reason }, 'ready: the database answers');
    // Migrating is what a replica starting on a new release is meant to do: nothing to warn of.
    else if (reason === MIGRATING) this.#parts.logger.info({ db: reason }, 'not ready');
    else this.#parts.logger.warn({ db: reason }, 'not ready');
  }
}
