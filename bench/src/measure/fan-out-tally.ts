import type { StreamedEvent } from '../load/event-stream';
import type { OrderEvent } from '../servers/order-events';

/**
 * What every stream of a fan-out received, event by event: each stream must see every event once and
 * in the order published; the tally keeps when each event was published and when its last stream
 * received it, and wakes whoever waits for a number of deliveries.
 */
export class FanOutTally {
  readonly #streams: number;
  readonly #sentAt: number[] = [];
  readonly #arrivals: number[] = [];
  readonly #lastArrivalAt: number[] = [];
  // The sequence each stream must receive next.
  readonly #nextByStream: number[];
  #delivered = 0;
  #fault: string | undefined;
  #waiter: { count: number; wake: () => void } | undefined;

  constructor(streams: number) {
    this.#streams = streams;
    this.#nextByStream = Array.from({ length: streams }, () => 0);
  }

  /** Notes the instant event `sequence` is published. */
  sent(sequence: number): void {
    this.#sentAt[sequence] = performance.now();
  }

  /** Counts an event stream `stream` received; one out of order or twice is a fault the wait reports. */
  received(stream: number, event: StreamedEvent): void {
    const at = performance.now();
    const { sequence } = JSON.parse(event.data) as OrderEvent;
    const expected = this.#nextByStream[stream] ?? 0;
    if (sequence !== expected)
      this.#fault ??= `stream ${stream} received event ${sequence} (id ${event.id}) where ${expected} was next`;
    this.#nextByStream[stream] = sequence + 1;
    const arrivals = (this.#arrivals[sequence] ?? 0) + 1;
    this.#arrivals[sequence] = arrivals;
    if (arrivals === this.#streams) this.#lastArrivalAt[sequence] = at;
    this.#delivered += 1;
    if (this.#waiter !== undefined && this.#delivered >= this.#waiter.count) this.#waiter.wake();
  }

  /** Resolves once `count` events have been delivered in all; rejects on a fault or after `timeoutMs`. */
  async delivered(count: number, timeoutMs: number): Promise<void> {
    if (this.#delivered < count) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve, reject) => {
        this.#waiter = { count, wake: resolve };
        timer = setTimeout(
          () =>
            reject(
              new Error(
                this.#fault ?? `${this.#delivered} of ${count} events delivered after ${timeoutMs} ms`,
              ),
            ),
          timeoutMs,
        );
      }).finally(() => {
        clearTimeout(timer);
        this.#waiter = undefined;
      });
    }
    if (this.#fault !== undefined) throw new Error(this.#fault);
  }

  /** Milliseconds from the publishing of each of events `first` to `last` (inclusive) to its last stream. */
  fanOutMs(first: number, last: number): number[] {
    const times: number[] = [];
    for (let sequence = first; sequence <= last; sequence += 1)
      times.push((this.#lastArrivalAt[sequence] ?? Number.NaN) - (this.#sentAt[sequence] ?? Number.NaN));
    return times;
  }

  /** Seconds from the publishing of event `first` to the last delivery of any of `first` to `last`. */
  spanSeconds(first: number, last: number): number {
    const lastArrival = Math.max(...this.#lastArrivalAt.slice(first, last + 1));
    return (lastArrival - (this.#sentAt[first] ?? Number.NaN)) / 1000;
  }

  /** When the publishing of event `sequence` began. */
  sentAt(sequence: number): number {
    return this.#sentAt[sequence] ?? Number.NaN;
  }
}
