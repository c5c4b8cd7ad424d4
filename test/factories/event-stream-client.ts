import http from 'node:http';
import { eventually } from './eventually';

/** A Server-Sent Events stream as a client reads it: its headers and every byte so far. */
export interface EventStreamReader {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** The text received so far. */
  text(): string;
  /** Resolves with the text once it satisfies `predicate`; rejects after `within` ms naming `what`. */
  waitFor(what: string, predicate: (text: string) => boolean, within?: number): Promise<string>;
  /** Resolves once the server ended the stream: `complete` when its last chunk arrived (never cut). */
  readonly ended: Promise<{ readonly complete: boolean; readonly at: number }>;
  /** Leaves, as a closed browser tab does; resolves with the instant it did (`performance.now()`). */
  leave(): number;
}

/** Opens `url` as an event stream (its own connection), with `headers`, once its head has arrived. */
export function openEventStream(
  url: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<EventStreamReader> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { agent: false, headers: { accept: 'text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        const ended = new Promise<{ complete: boolean; at: number }>((settle) => {
          res.on('close', () => settle({ complete: res.complete, at: performance.now() }));
        });
        res.on('error', () => undefined);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: () => text,
          waitFor: (what, predicate, within = 5000) =>
            eventually(() => (predicate(text) ? text : false), { within, every: 10, what }),
          ended,
          leave: () => {
            const at = performance.now();
            req.destroy();
            return at;
          },
        });
      },
    );
    req.on('error', reject);
  });
}
