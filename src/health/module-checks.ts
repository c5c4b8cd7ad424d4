import { InjectionToken } from '../container/token';
import type { CheckFunction } from './health-check';

/** A readiness check a module of keel's adds for what it depends on, beside the application's own. */
export interface ModuleCheck {
  /** The key it answers under in `GET /health/ready`. */
  readonly name: string;
  readonly check: CheckFunction;
}

/**
 * Providers under this token add their check to readiness wherever `HealthModule` is imported: a
 * module whose work a request needs (the job queue) keeps the replica out of the balancer until it
 * can do it. @internal
 *
 * @example
 * providers: [{ provide: MODULE_CHECKS, useFactory: (runtime) => jobsCheck(runtime), inject: [JobsRuntime] }]
 */
export const MODULE_CHECKS = new InjectionToken<ModuleCheck>('MODULE_CHECKS', { multi: true });
