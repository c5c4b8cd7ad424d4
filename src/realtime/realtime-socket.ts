import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { AuthUser } from '../http/auth-user';

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
    if (!this.isOpen) return false;
    this.#ws.send(JSON.stringify({ event, data }));
    this.#watch.onSent();
    if (this.#ws.bufferedAmount > this.#watch.maxBuffered) {
      this.close(CloseCode.tryAgainLater, 'slow consumer');
      return false;
    }
    return true;
  }

  /** Closes the connection (default 1000, normal). @example socket.close(4001, 'kicked') */
  close(code = 1000, reason = ''): void {
    if (this.#ws.readyState === this.#ws.CLOSED || this.#ws.readyState === this.#ws.CLOSING) return;
    this.#ws.close(code, reason);
  }
}
