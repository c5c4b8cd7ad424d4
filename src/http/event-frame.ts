import { StreamErrors } from '../errors/stream-errors';

/**
 * One Server-Sent Event: its `data` (a string as it is, anything else as JSON), and optionally the
 * `event` name the client's `addEventListener` listens for, the `id` it sends back as
 * `Last-Event-ID` when it reconnects, and the `retry` delay (milliseconds) it waits before that.
 *
 * @example
 * const event: SseEvent = { event: 'order', id: String(order.id), data: order };
 */
export interface SseEvent<T = unknown> {
  readonly data: T;
  readonly event?: string;
  readonly id?: string | number;
  readonly retry?: number;
}

// A field that holds a line break would end the field early and start another of the client's
// choosing: `event` and `id` are single lines (and an id with NUL is ignored by browsers).
const LINE_BREAK = /[\r\n]/;
const NUL = /\0/;
const DATA_LINES = /\r\n|\r|\n/;

/**
 * The text of one event as `text/event-stream` frames it: an item with a `data` key is an
 * {@link SseEvent}; any other item is the data itself. Data that is not a string goes out as JSON
 * (after `serialize`, which shapes class instances); data of several lines goes out as several
 * `data:` lines, which the client joins again. A field that would break the framing throws.
 *
 * @example
 * frameEvent({ event: 'order', id: 7, data: { id: 7 } }, (v) => v) // 'event: order\nid: 7\ndata: {"id":7}\n\n'
 */
export function frameEvent(item: unknown, serialize: (data: unknown) => unknown): string {
  const event = isSseEvent(item) ? item : { data: item };
  let text = '';
  if (event.event !== undefined) {
    if (typeof event.event !== 'string' || LINE_BREAK.test(event.event))
      throw StreamErrors.sseInvalidField('event', event.event);
    text += `event: ${event.event}\n`;
  }
  if (event.id !== undefined) {
    const id = String(event.id);
    if (LINE_BREAK.test(id) || NUL.test(id)) throw StreamErrors.sseInvalidField('id', event.id);
    text += `id: ${id}\n`;
  }
  if (event.retry !== undefined) {
    if (!Number.isSafeInteger(event.retry) || event.retry < 0)
      throw StreamErrors.sseInvalidField('retry', event.retry);
    text += `retry: ${event.retry}\n`;
  }
  for (const line of dataText(event.data, serialize).split(DATA_LINES)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** The frame that tells a client how long to wait before it reconnects. @example retryFrame(1000) // 'retry: 1000\n\n' */
export function retryFrame(retryMs: number): string {
  return `retry: ${retryMs}\n\n`;
}

/** A comment line: the client ignores it, and proxies see the stream is alive. */
export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';

function isSseEvent(item: unknown): item is SseEvent {
  return typeof item === 'object' && item !== null && Object.hasOwn(item, 'data');
}

function dataText(data: unknown, serialize: (data: unknown) => unknown): string {
  if (typeof data === 'string') return data;
  // JSON text never holds a raw line break, so it stays one `data:` line.
  return JSON.stringify(serialize(data)) ?? '';
}
