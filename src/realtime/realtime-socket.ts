import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { RealtimeErrors } from '../errors/realtime-errors';
import type { AuthUser } from '../http/auth-user';
import type { ChannelEvent } from './channel-hub';

/** Close codes keel sends (RFC 6455, 7.4.1). */
export const CloseCode = {
  goingAway: 1001,
  tooLarge: 1009,
  tryAgainLater: 1013,
} as const;

/** What a socket reports to the server that holds it. @internal */
export interface SocketWatch {
  readonly maxBuffered: number;
  onSent(): void;
  /** Subscribes to a channel's events on every replica; undefined without `RealtimeModule`. */
  readonly subscribe: ((channel: string, listener: (event: ChannelEvent) => void) => () => void) | undefined;
}

/**
 * One client's WebSocket connection, as a gateway's methods see it (`@ConnectedSocket()`): frames
 * are JSON `{ event, data }`. A client that stops reading is closed 1013 once the server holds more
 * than `maxBuffered` bytes unsent for it, and sent nothing more: its memory stays bounded.
 *
 * @example
 * @OnConnect() hello(@ConnectedSocket() socket: RealtimeSocket) { socket.send('hello', { id: socket.id }); }
 */
export class RealtimeSocket {
  /** A random id, unique to this connection. */
  readonly id = randomUUID();
  /** The user the upgrade was authenticated as; undefined on an open gateway. */
  readonly user: AuthUser | undefined;
  readonly #ws: WebSocket;
  readonly #watch: SocketWatch;
  readonly #channels = new Map<string, () => void>();

  /** @internal made by the gateway server */
  constructor(ws: WebSocket, user: AuthUser | undefined, watch: SocketWatch) {
    this.#ws = ws;
    this.user = user;
    this.#watch = watch;
  }

  /** Whether the socket is open: `send` is a no-op otherwise. */
  get isOpen(): boolean {
    return this.#ws.readyState === this.#ws.OPEN;
  }

  /**
   * Sends `{ event, data }`; false when nothing was sent (closed, or just closed 1013 for a client
   * that is not reading). @example socket.send('said', { text })
   */
  send(event: string, data?: unknown): boolean {
    return this.#sendFrame({ event, data });
  }

  #sendFrame(frame: { event: string; data: unknown; id?: string }): boolean {
    if (!this.isOpen) return false;
    this.#ws.send(JSON.stringify(frame));
    this.#watch.onSent();
    if (this.#ws.bufferedAmount > this.#watch.maxBuffered) {
      this.close(CloseCode.tryAgainLater, 'slow consumer');
      return false;
    }
    return true;
  }

  /**
   * Sends this socket every event `Broadcast` publishes on `channel`, on any replica, as
   * `{ event, data, id }`, until `leave(channel)` or the socket closes. Needs `RealtimeModule`.
   * @example socket.join(`room:${room}`)
   */
  join(channel: string): void {
    if (this.#channels.has(channel) || !this.isOpen) return;
    const subscribe = this.#watch.subscribe;
    if (!subscribe) throw RealtimeErrors.noBroadcast();
    this.#channels.set(
      channel,
      subscribe(channel, (event) => this.#sendFrame({ event: event.event, data: event.data, id: event.id })),
    );
  }

  /** Stops sending `channel`'s events. @example socket.leave(`room:${room}`) */
  leave(channel: string): void {
    this.#channels.get(channel)?.();
    this.#channels.delete(channel);
  }

  /** The channels joined now. */
  get channels(): readonly string[] {
    return [...this.#channels.keys()];
  }

  /** @internal the gateway server's, once the socket has closed */
  leaveAll(): void {
    for (const channel of [...this.#channels.keys()]) this.leave(channel);
  }

  /** Closes the connection (default 1000, normal). @example socket.close(4001, 'kicked') */
  close(code = 1000, reason = ''): void {
    if (this.#ws.readyState === this.#ws.CLOSED || this.#ws.readyState === this.#ws.CLOSING) return;
    this.#ws.close(code, reason);
  }
}
