import type { ChannelEvent } from './channel-hub';

/** Settings of a transport, from `RealtimeModule.forRoot`. @internal */
export interface TransportSettings {
  /** How long events are kept for clients that reconnect. */
  readonly replayWindowMs: number;
}

/** Where a transport hands the events it learns of: this replica's subscribers. */
export interface LocalSubscribers {
  /** Hands `event` to every listener of its channel here. */
  deliver(event: ChannelEvent): void;
  /** The channels that have a listener here now: those a transport catches up after a gap. */
  channels(): Iterable<string>;
}

/**
 * How `Broadcast`'s events are stored and reach every replica: the store keeps them for the replay
 * window, and every replica's connection hears of each new one. `Broadcast` keeps the channels;
 * a transport keeps the ids: increasing across every replica, decimal strings.
 *
 * @example
 * await transport.start(hub);
 * const id = await transport.publish('orders', 'created', { id: 7 });
 */
export interface RealtimeTransport {
  /** Whether this replica's connection is up now: events published elsewhere reach it. */
  readonly isListening: boolean;
  /**
   * Starts handing every event published from now on, on any replica, to `subscribers`, each once
   * and in id order within a channel; called before the application serves.
   */
  start(subscribers: LocalSubscribers): Promise<void>;
  /** Closes the transport's own connections; the application's stay open. */
  stop(): Promise<void>;
  /** Stores the event and announces it; resolves with its id once it is stored and published. */
  publish(channel: string, event: string, data: unknown): Promise<string>;
  /** The events of `channel` after the id `after` that are still in the replay window, in id order. */
  replay(channel: string, after: bigint): Promise<ChannelEvent[]>;
}
