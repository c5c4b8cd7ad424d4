import { LifecycleErrors } from '../errors/lifecycle-errors';
import { checkBoolean } from '../lifecycle/option-checks';

/** Option `compression` as an object: from what size an answer is compressed. */
export interface CompressionOptions {
  /** Answers smaller than this many bytes go out as they are. Default: `1024`. */
  readonly threshold?: number;
}

/** How keel writes the bodies of its answers, decided once at boot from options `etag` and `compression`. */
export interface AnswerSettings {
  /** Whether 200 answers to GET and HEAD carry a weak `ETag` (and a matching `If-None-Match` gets 304). */
  readonly etag: boolean;
  /** The smallest body compressed, in bytes; undefined: compression is off. */
  readonly compressionThreshold: number | undefined;
}

const DEFAULT_THRESHOLD = 1024;

/**
 * Checks and fills in options `etag` (default on) and `compression` (default off; `true` or
 * `{ threshold }`, default threshold 1 KiB); one of the wrong kind is a boot error naming it.
 *
 * @example
 * resolveAnswerSettings({ compression: true }); // { etag: true, compressionThreshold: 1024 }
 */
export function resolveAnswerSettings(options: {
  readonly etag?: unknown;
  readonly compression?: unknown;
}): AnswerSettings {
  return {
    etag: checkBoolean('etag', options.etag ?? true),
    compressionThreshold: compressionThreshold(options.compression ?? false),
  };
}

function compressionThreshold(option: unknown): number | undefined {
  if (option === false) return undefined;
  if (option === true) return DEFAULT_THRESHOLD;
  const threshold: unknown =
    typeof option === 'object' && option !== null
      ? ((option as CompressionOptions).threshold ?? DEFAULT_THRESHOLD)
      : undefined;
  if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 0)
    throw LifecycleErrors.invalidOption('compression', option, 'true, false or { threshold: bytes }');
  return threshold;
}
