import http from 'node:http';
import { orderIdOf, type ReceivedOrder } from './delivery-tally';

/** What one resuming event-stream client received and how it connected. */
export interface EventSourceRecord {
  /** Each `order` event dispatched (its id, and the order its data carries), in the order it arrived. */
  readonly orders: ReceivedOrder[];
  /** Each connection it opened, as `open@<Last-Event-ID sent>` (`open@-` without one). */
  readonly opens: string[];
  /** Connections that ended (or failed) and were opened again. */
  reconnects: number;
  /** Answers other than a 200 event stream (a balancer's 503 while no replica was up). */
  refusals: number;
}

/** A running client: what it received, and how to stop it. */
export interface ResumingEventSource {
  readonly record: EventSourceRecord;
  /** Whether a connection is open and its 200 head has arrived. */
  readonly isOpen: boolean;
  stop(): void;
}

// A browser's default reconnection time (the HTML standard leaves it to the browser; Chrome and
// Firefox use 3 s); keel's shutdown sends `retry:` with its own, which then rules.
const DEFAULT_RETRY_MS = 3000;

/**
 * Reads `url` (the sample's live orders, `GET /orders/live/events`) as `text/event-stream` the way a
 * browser's `EventSource` does: fields parsed line by line, an event dispatched only at its blank
 * line (one cut off by the end of the stream is dropped, its id with it), `retry:` obeyed, and on every end or error a new connection after the retry
 * delay, sending the id of the last event dispatched as `Last-Event-ID`. Unlike a browser, it also
 * reconnects after an answer that is not a 200 stream (counted in `refusals`), where `EventSource`
 * would give up: a balancer with no replica up for a moment must not lose the client.
 *
 * @example
 * const client = openResumingEventSource(`${balancer.url}/orders/live/events`);
 * await eventually(() => client.record.orders.length > 0, { within: 5_000 });
 */
export function openResumingEventSource(url: string): ResumingEventSource {
  const record: EventSourceRecord = { orders: [], opens: [], reconnects: 0, refusals: 0 };
  let retryMs = DEFAULT_RETRY_MS;
  let lastEventId: string | undefined;
  let isStopped = false;
  let isOpen = false;
  let current: http.ClientRequest | undefined;

  const connect = (): void => {
    const headers: http.OutgoingHttpHeaders = { accept: 'text/event-stream' };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    record.opens.push(`open@${lastEventId ?? '-'}`);
    let isEnded = false;
    const reconnect = (): void => {
      isOpen = false;
      if (isEnded || isStopped) return;
      isEnded = true;
      record.reconnects += 1;
      // The client's retry delay: how long an EventSource waits, not a wait for something to happen.
      setTimeout(connect, retryMs);
    };
    const req = http.get(url, { agent: false, headers }, (res) => {
      if (res.statusCode !== 200 || !/^text\/event-stream/.test(res.headers['content-type'] ?? '')) {
        record.refusals += 1;
        res.resume();
        res.on('close', reconnect);
        res.on('error', () => undefined);
        return;
      }
      isOpen = true;
      const parser = new EventStreamParser({
        onDispatch: (id, event, data) => {
          lastEventId = id;
          if (event === 'order' && data !== undefined && id !== undefined)
            record.orders.push({ eventId: Number(id), orderId: orderIdOf(data) });
        },
        onRetry: (ms) => (retryMs = ms),
      });
      res.setEncoding('utf8').on('data', (chunk: string) => parser.push(chunk));
      // 'close' covers every way a response stops: a clean end, an abort, a reset.
      res.on('close', reconnect);
      res.on('error', () => undefined);
    });
    req.on('error', reconnect);
    current = req;
  };
  connect();
  return {
    record,
    get isOpen() {
      return isOpen;
    },
    stop: () => {
      isStopped = true;
      current?.destroy();
    },
  };
}

interface ParserListeners {
  /** An event dispatched: the source's last event id, its type (`message` unless named) and its data. */
  onDispatch(lastEventId: string | undefined, event: string, data: string | undefined): void;
  onRetry(ms: number): void;
}

/**
 * The `text/event-stream` grammar of the HTML standard, fed chunk by chunk: lines end with CRLF, LF
 * or CR; a blank line dispatches: the source's last event id becomes the last `id:` seen (ids
 * persist across events), and an event goes out if it had data (its `data:` lines joined with LF);
 * `retry:` with digits only sets the reconnection time; comments and other fields are skipped.
 */
class EventStreamParser {
  #pending = '';
  #lastId: string | undefined;
  #event = '';
  #data: string[] = [];
  readonly #on: ParserListeners;

  constructor(on: ParserListeners) {
    this.#on = on;
  }

  push(chunk: string): void {
    const lines = (this.#pending + chunk).split(/\r\n|\n|\r(?!$)/);
    // The last piece has no line ending yet (a lone CR at the end may be half of a CRLF).
    this.#pending = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  #line(line: string): void {
    if (line === '') {
      this.#on.onDispatch(
        this.#lastId,
        this.#event || 'message',
        this.#data.length > 0 ? this.#data.join('\n') : undefined,
      );
      this.#event = '';
      this.#data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\0')) this.#lastId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.#on.onRetry(Number(value));
  }
}
