import { messageOf } from '../errors/describe-value';
import { settleWithin } from '../lifecycle/settle-within';
import type { CheckFunction } from './health-check';

/** The outcome of one named check: `reason` is `connected`, or why the dependency is not. */
export interface CheckReport {
  readonly name: string;
  readonly isHealthy: boolean;
  readonly isOptional: boolean;
  readonly reason: string;
}

/** How a {@link NamedCheck} runs: its bound, and whether its failure keeps readiness up. */
export interface NamedCheckSettings {
  readonly timeoutMs: number;
  readonly isOptional: boolean;
}

/**
 * Runs one dependency's check for readiness, single-flight and bounded: probes that arrive while a
 * run is in flight share it, so a flood of probes puts one check on the dependency; a run still
 * unanswered after `timeoutMs` reports `timeout after <ms> ms`, has its signal aborted and is
 * forgotten, so a dependency that never answers cannot hold every later probe.
 *
 * @example
 * const redis = new NamedCheck('redis', redisCheck(() => client), { timeoutMs: 500, isOptional: false });
 * const { isHealthy, reason } = await redis.check();
 */
export class NamedCheck {
  readonly #name: string;
  readonly #run: CheckFunction;
  readonly #settings: NamedCheckSettings;
  #inFlight: Promise<CheckReport> | undefined;

  constructor(name: string, run: CheckFunction, settings: NamedCheckSettings) {
    this.#name = name;
    this.#run = run;
    this.#settings = settings;
  }

  /** Reports on the dependency within `timeoutMs`; never rejects. @example await check.check() */
  check(): Promise<CheckReport> {
    this.#inFlight ??= this.#attempt().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  #attempt(): Promise<CheckReport> {
    const { timeoutMs } = this.#settings;
    const controller = new AbortController();
    const running = (async () => {
      await this.#run(controller.signal);
      return this.#report(true, 'connected');
    })().catch((error: unknown) => this.#report(false, messageOf(error)));
    return settleWithin(running, timeoutMs, () => {
      controller.abort(new Error(`timeout after ${timeoutMs} ms`));
      return this.#report(false, `timeout after ${timeoutMs} ms`);
    });
  }

  #report(isHealthy: boolean, reason: string): CheckReport {
    return { name: this.#name, isHealthy, isOptional: this.#settings.isOptional, reason };
  }
}
