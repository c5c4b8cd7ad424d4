/** One event of a channel, as it is stored and delivered. */
export interface ChannelEvent {
  /** Increasing across the application's replicas: what `Last-Event-ID` names. */
  readonly id: string;
  readonly channel: string;
  readonly event: string;
  readonly data: unknown;
}

/** Receives the events of the channels it subscribed to. */
export type ChannelListener = (event: ChannelEvent) => void;

/**
 * The subscribers of this process, by channel: what a replica delivers each event it is told of to.
 *
 * @example
 * const stop = hub.subscribe('orders', (event) => socket.send(event.event, event.data));
 */
export class ChannelHub {
  readonly #listeners = new Map<string, Set<ChannelListener>>();

  /** Adds `listener` to `channel`; the returned function removes it. */
  subscribe(channel: string, listener: ChannelListener): () => void {
    let set = this.#listeners.get(channel);
    if (!set) this.#listeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(channel) === set) this.#listeners.delete(channel);
    };
  }

  /** The channels that have a listener here now. */
  channels(): Iterable<string> {
    return this.#listeners.keys();
  }

  /** Hands `event` to every listener of its channel here. */
  deliver(event: ChannelEvent): void {
    for (const listener of this.#listeners.get(event.channel) ?? []) listener(event);
  }
}
