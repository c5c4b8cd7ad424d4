import { InjectionToken } from '../container/token';
import type { CheckReport } from './named-check';
import type { ReadinessReport } from './readiness-check';

/** What readiness found, each time it is asked: the database, every named check, and the verdict. */
export interface ReadinessState {
  /** 200 or 503: the database, the required checks, the load and the shutdown together. */
  readonly isReady: boolean;
  readonly db: ReadinessReport;
  readonly checks: readonly CheckReport[];
  /** The `loadShedding` limit passed, if one is. */
  readonly overload: string | undefined;
}

/** Asks readiness, as a probe does, with the probes' single-flight checks. */
export interface ReadinessSource {
  /** Checks the database and every named check, within their bounds; never rejects. */
  evaluate(): Promise<ReadinessState>;
}

/**
 * The readiness of `HealthModule`, for what reports it besides the probe (the `keel_readiness`
 * gauge): it shares the probe's checks, so asking it puts no second check on a dependency.
 *
 * @example
 * if (container.has(READINESS)) (await container.get(READINESS).evaluate()).db.isReady;
 */
export const READINESS = new InjectionToken<ReadinessSource>('READINESS');
