import { checkMilliseconds } from '../lifecycle/option-checks';
import { LifecycleErrors } from '../errors/lifecycle-errors';

/** The limits past which the application sheds load; each is optional, and none is set by default. */
export interface LoadSheddingOptions {
  /** The longest the event loop may lag (the worst delay seen over half a second). */
  maxEventLoopDelayMs?: number;
  /** The most heap V8 may have in use. */
  maxHeapUsedBytes?: number;
  /** The most resident memory the process may hold. */
  maxRssBytes?: number;
  /** What `Retry-After` tells a shed client. Default: `10`. */
  retryAfterS?: number;
}

/** {@link LoadSheddingOptions} checked, with the default filled in. */
export interface LoadSheddingSettings {
  readonly maxEventLoopDelayMs: number | undefined;
  readonly maxHeapUsedBytes: number | undefined;
  readonly maxRssBytes: number | undefined;
  readonly retryAfterS: number;
}

/** Checks the `loadShedding` option; a limit of the wrong kind is a boot error. @example resolveLoadShedding({ maxEventLoopDelayMs: 1000 }) */
export function resolveLoadShedding(options: LoadSheddingOptions): LoadSheddingSettings {
  if (typeof options !== 'object' || options === null)
    throw LifecycleErrors.invalidOption(
      'loadShedding',
      options,
      '{ maxEventLoopDelayMs?, maxHeapUsedBytes?, maxRssBytes?, retryAfterS? }',
    );
  const optional = (name: keyof LoadSheddingOptions, check: (option: string, value: unknown) => number) =>
    options[name] === undefined ? undefined : check(`loadShedding.${name}`, options[name]);
  return {
    maxEventLoopDelayMs: optional('maxEventLoopDelayMs', checkMilliseconds),
    maxHeapUsedBytes: optional('maxHeapUsedBytes', checkBytes),
    maxRssBytes: optional('maxRssBytes', checkBytes),
    retryAfterS: optional('retryAfterS', checkSeconds) ?? 10,
  };
}

function checkBytes(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw LifecycleErrors.invalidOption(option, value, 'a whole number of bytes from 1');
  return value;
}

function checkSeconds(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw LifecycleErrors.invalidOption(option, value, 'a whole number of seconds from 0');
  return value;
}
