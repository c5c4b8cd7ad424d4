import type { Context } from '../http/context';
import type { ApplicationStatus } from '../lifecycle/application-status';
import type { LoadMonitor } from '../http/load-monitor';
import type { Logger } from '../logging/logger';
import type { HealthSettings } from './health-options';
import type { CheckReport, NamedCheck } from './named-check';
import { MIGRATING, ReadinessCheck, type DataSourceResolver } from './readiness-check';
import type { ReadinessSource, ReadinessState } from './readiness-source';

/** What the two health endpoints answer from. */
export interface HealthEndpointParts {
  /** Called at each readiness check for the `DataSource`. */
  readonly resolveDataSource: DataSourceResolver;
  /**
   * The application's other dependencies, checked beside the database: known at the first check,
   * once every provider exists (a module's own check may be created after the health routes).
   */
  readonly checks: () => readonly NamedCheck[];
  readonly status: ApplicationStatus;
  /** Says when a `loadShedding` limit is passed: readiness is 503 then, with `load`. */
  readonly load: LoadMonitor;
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
export class HealthEndpoints implements ReadinessSource {
  readonly #parts: HealthEndpointParts;
  readonly #readiness: ReadinessCheck;
  #checks: readonly NamedCheck[] | undefined;
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

  /**
   * 200 `{"status":"ready","db":"connected"}` (and one key per named check), or 503
   * `{"status":"error","db":"<reason>"}` when the database or a required check fails; the database
   * and every check run in parallel. @example await endpoints.readiness(ctx)
   */
  async readiness(ctx: Context): Promise<void> {
    const { status, settings } = this.#parts;
    const { isReady, db: report, checks: reports, overload } = await this.evaluate();
    ctx.header('Cache-Control', 'no-store');
    // "migrating" and "shutting down" say what the application is doing, nothing of the database.
    const isPublic = report.isReady || status.isShuttingDown || report.reason === MIGRATING;
    const db = settings.exposeReason || isPublic ? report.reason : 'unavailable';
    const body = {
      status: isReady ? 'ready' : 'error',
      db,
      ...this.#shownChecks(reports),
      ...(overload === undefined ? {} : { load: overload }),
    };
    ctx.json(isReady ? 200 : 503, body);
  }

  /** Checks the database and every named check in parallel, as readiness answers from them. @example (await endpoints.evaluate()).isReady */
  async evaluate(): Promise<ReadinessState> {
    const { status } = this.#parts;
    const checks = (this.#checks ??= this.#parts.checks());
    const [checked, ...reports] = status.isShuttingDown
      ? [undefined]
      : await Promise.all([this.#readiness.check(), ...checks.map((check) => check.check())]);
    // Read again after the checks: a shutdown may have started while they ran.
    const db = !checked || status.isShuttingDown ? { isReady: false, reason: 'shutting down' } : checked;
    const { overload } = this.#parts.load;
    const isReady =
      db.isReady && overload === undefined && reports.every((check) => check.isHealthy || check.isOptional);
    this.#logChange(isReady, db.reason, reports);
    return { isReady, db, checks: reports, overload };
  }

  #shownChecks(reports: readonly CheckReport[]): Record<string, string> {
    const { exposeReason } = this.#parts.settings;
    return Object.fromEntries(
      reports.map(({ name, isHealthy, reason }) => [
        name,
        isHealthy || exposeReason ? reason : 'unavailable',
      ]),
    );
  }

  #logChange(isReady: boolean, reason: string, reports: readonly CheckReport[]): void {
    if (isReady === this.#wasReady) return;
    this.#wasReady = isReady;
    const details = { db: reason, ...Object.fromEntries(reports.map((check) => [check.name, check.reason])) };
    if (isReady) this.#parts.logger.info(details, 'ready: the database answers');
    // Migrating is what a replica starting on a new release is meant to do: nothing to warn of.
    else if (reason === MIGRATING) this.#parts.logger.info(details, 'not ready');
    else this.#parts.logger.warn(details, 'not ready');
  }
}
