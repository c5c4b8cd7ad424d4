import { describeValue } from './describe-value';
import { defineErrors } from './error-entry';

/**
 * The errors of Server-Sent Events streams: one entry per code, so each message is written once.
 *
 * @example
 * StreamErrors.sseNotIterable.code; // 'E_SSE_NOT_ITERABLE'
 */
export const StreamErrors = defineErrors({
  sseNotIterable: {
    code: 'E_SSE_NOT_ITERABLE',
    message: (route: string, value: unknown) =>
      `${route} is marked @Sse() (or called ctx.sse()) with ${describeValue(value)}, which is not an iterable.\n` +
      `Fix: return an async generator (async function*) or another AsyncIterable of events.`,
  },

  sseInvalidField: {
    code: 'E_SSE_INVALID_FIELD',
    message: (field: string, value: unknown) =>
      `a Server-Sent Event's ${field} is ${describeValue(value)}: ` +
      (field === 'retry'
        ? 'it must be a whole number of milliseconds, 0 or more.'
        : 'it must be one line (no line break) of text; the stream was ended.'),
  },
});
