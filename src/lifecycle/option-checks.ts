import { LifecycleErrors } from '../errors/lifecycle-errors';

// Node's timers take at most 2^31 - 1 ms; a longer delay fires after 1 ms instead, which would turn a
// generous timeout into none at all.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `value` when it is a boolean; a boot error naming `option` otherwise. @example checkBoolean('handleSignals', true) */
export function checkBoolean(option: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw LifecycleErrors.invalidOption(option, value, 'true or false');
  return value;
}

/** `value` when it is a usable timer delay; a boot error naming `option` otherwise. @example checkMilliseconds('shutdownDelayMs', 0) */
export function checkMilliseconds(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) {
    throw LifecycleErrors.invalidOption(option, value, `a number of milliseconds from 0 to ${MAX_TIMER_MS}`);
  }
  return value;
}
