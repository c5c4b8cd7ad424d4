/** Ends one open stream, telling its client to reconnect after `retryMs`. */
export type StreamEnd = (retryMs: number) => void;

/** How long a client waits before it reconnects to a stream a shutdown ended: soon, to another replica. */
export const SHUTDOWN_RETRY_MS = 1000;

/**
 * The application's open event streams, so that a graceful shutdown can end each one with a
 * `retry` hint rather than cut it: its clients reconnect, to another replica, at once. A stream
 * that opens after the shutdown has ended them is ended as it opens.
 *
 * @example
 * const remove = streams.add((retryMs) => res.end(`retry: ${retryMs}\n\n`));
 * res.on('close', remove);
 * streams.endAll(); // the drain has started
 */
export class OpenStreams {
  readonly #ends = new Set<StreamEnd>();
  #isEnded = false;

  /** How many streams are open now. */
  get size(): number {
    return this.#ends.size;
  }

  /** Keeps `end` until the returned function forgets it; after `endAll()`, calls it at once. */
  add(end: StreamEnd): () => void {
    if (this.#isEnded) {
      end(SHUTDOWN_RETRY_MS);
      return () => undefined;
    }
    this.#ends.add(end);
    return () => this.#ends.delete(end);
  }

  /** Ends every open stream, and every one that opens from now on, with `retry: retryMs`. */
  endAll(retryMs = SHUTDOWN_RETRY_MS): void {
    this.#isEnded = true;
    for (const end of [...this.#ends]) end(retryMs);
    this.#ends.clear();
  }
}
