import { checkBoolean, checkMilliseconds } from '../lifecycle/option-checks';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import { joinPath } from '../routing/path';
import { resolveChecks, type CheckSettings } from './check-settings';
import type { HealthCheck } from './health-check';
import type { DataSourceResolver } from './readiness-check';

/** How the health routes behave; every option is optional. */
export interface HealthOptions {
  /** Where liveness answers; readiness answers at `<path>/ready`. Default: `/health`. */
  path?: string;
  /** How long readiness waits for the database before answering 503. Default: `500`, under the 1 s orchestrators allow a probe. */
  timeoutMs?: number;
  /** Send the driver's reason in `db`; `false` sends `unavailable` instead (the reason is still logged). Default: `true`. */
  exposeReason?: boolean;
  /**
   * Dependencies readiness checks besides the database, by name: each adds its key to the body
   * (`"connected"`, or its reason), runs in parallel with the others, single-flight and bounded by
   * `timeoutMs` (or its own). A required one failing makes readiness 503. Default: none.
   */
  checks?: Readonly<Record<string, HealthCheck>>;
}

/** {@link HealthOptions}, plus where `HealthModule` finds the `DataSource` when it is not the container's. */
export interface HealthModuleOptions extends HealthOptions {
  /** Called at each check for the `DataSource`. Default: the `DataSource` provider in the container. */
  dataSource?: DataSourceResolver;
}

/** {@link HealthOptions} with every default filled in. */
export interface HealthSettings {
  readonly path: string;
  /** The routes' names for `urlFor`, from the path: `health.liveness` and `health.readiness` at `/health`. */
  readonly names: { readonly liveness: string; readonly readiness: string };
  readonly timeoutMs: number;
  readonly exposeReason: boolean;
  readonly checks: readonly CheckSettings[];
}

/** Fills in the defaults of {@link HealthOptions}; an option of the wrong kind is a boot error. @example resolveHealthOptions({ timeoutMs: 800 }) */
export function resolveHealthOptions(options: HealthOptions): HealthSettings {
  const timeoutMs = checkMilliseconds('health timeoutMs', options.timeoutMs ?? 500);
  if (timeoutMs === 0) throw LifecycleErrors.invalidOption('health timeoutMs', 0, 'more than 0 milliseconds');
  const path = options.path ?? '/health';
  if (typeof path !== 'string')
    throw LifecycleErrors.invalidOption('health path', path, "a path such as '/health'");
  const joined = joinPath(path);
  const prefix = joined === '/' ? 'health' : joined.slice(1).replaceAll('/', '.');
  return {
    path: joined,
    names: { liveness: `${prefix}.liveness`, readiness: `${prefix}.readiness` },
    timeoutMs,
    exposeReason: checkBoolean('health exposeReason', options.exposeReason ?? true),
    checks: resolveChecks(options.checks, timeoutMs),
  };
}
