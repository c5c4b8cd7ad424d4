import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamErrors } from '../errors/stream-errors';
import type { Logger } from '../logging/logger';
import { frameEvent, KEEP_ALIVE_FRAME, retryFrame } from './event-frame';
import { markHeadersObserved } from './held-headers';
import type { OpenStreams } from './open-streams';

/** How a Server-Sent Events stream behaves. */
export interface SseOptions {
  /**
   * How often a comment line goes out while no event does, so that proxies and balancers keep an
   * idle stream open; default 15 000 ms.
   */
  readonly keepAliveMs?: number;
}

/** The content type of a Server-Sent Events answer: what compression and ETags leave alone. */
export const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8';

const DEFAULT_KEEP_ALIVE_MS = 15_000;

/** What a stream writes to and reports through. */
export interface EventStreamTarget {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly streams: OpenStreams;
  readonly logger: Logger;
  /** The route, as messages name it. */
  readonly description: string;
  /** Shapes an event's data before it becomes JSON (class instances through their class's rules). */
  readonly serialize: (data: unknown) => unknown;
}

type EventIterator = Iterator<unknown> | AsyncIterator<unknown>;

/**
 * Answers with `text/event-stream` and sends each item of `events` as an event, as the client
 * takes them (a slow client is waited for, never buffered without bound), with a comment line
 * every `keepAliveMs`. The iterator's `return()` is called as soon as the client leaves; a graceful
 * shutdown ends the stream with a `retry` hint. Something that is not an iterable throws
 * `E_SSE_NOT_ITERABLE` before anything is sent; an iterator that fails, or an event that cannot be
 * framed, ends the stream and is logged.
 *
 * @example
 * streamEvents(target, (async function* () { yield { event: 'tick', data: 1 }; })(), {});
 */
export function streamEvents(target: EventStreamTarget, events: unknown, options: SseOptions = {}): void {
  const iterator = iteratorOf(events);
  if (iterator === undefined) throw StreamErrors.sseNotIterable(target.description, events);
  const { req, res, logger } = target;
  markHeadersObserved(res);
  res.setHeader('Content-Type', EVENT_STREAM_TYPE);
  // A proxy (nginx) or a cache that buffered the stream would hold every event back.
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Accel-Buffering', 'no');
  res.writeHead(200);
  res.flushHeaders();

  let isOver = false;
  let forget = (): unknown => undefined;
  const keepAlive = setInterval(
    () => res.write(KEEP_ALIVE_FRAME),
    options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
  );
  const stop = (): void => {
    isOver = true;
    clearInterval(keepAlive);
    forget();
    res.off('close', onClose);
  };
  const callReturn = (): void => {
    Promise.resolve()
      .then(() => iterator.return?.())
      .catch((error: unknown) => logger.error({ err: error }, 'an event stream failed to close'));
  };
  // The client left: its iterator is told at once, even while it waits for its next event.
  const onClose = (): void => {
    if (isOver) return;
    stop();
    callReturn();
  };
  const end = (frame: string | undefined, isReturned: boolean): void => {
    if (isOver) return;
    stop();
    if (!res.writableEnded) res.end(frame);
    if (!isReturned) callReturn();
  };
  res.on('close', onClose);
  // Last: a shutdown that has ended the streams already ends this one here, with everything set.
  forget = target.streams.add((retryMs) => end(retryFrame(retryMs), false));
  if (req.method === 'HEAD') return end(undefined, false);

  const pump = async (): Promise<void> => {
    while (!isOver) {
      const step = await iterator.next();
      if (isOver) return;
      if (step.done === true) return end(undefined, true);
      if (!res.write(frameEvent(step.value, target.serialize))) await drained(res);
    }
  };
  pump().catch((error: unknown) => {
    logger.error({ err: error, route: target.description }, 'an event stream failed; it was ended');
    end(undefined, false);
  });
}

function iteratorOf(events: unknown): EventIterator | undefined {
  // A string is iterable, one character at a time: never what a handler means by a stream.
  if (typeof events !== 'object' || events === null) return undefined;
  const { [Symbol.asyncIterator]: asyncIterate, [Symbol.iterator]: iterate } = events as Partial<
    AsyncIterable<unknown> & Iterable<unknown>
  >;
  if (typeof asyncIterate === 'function') return asyncIterate.call(events);
  if (typeof iterate === 'function') return iterate.call(events);
  return undefined;
}

// Waits until the client has taken what was written, or has left.
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
