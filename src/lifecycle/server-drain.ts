import type http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import { settleWithin } from '../settle-within';

/** How a drain ended. */
export interface DrainResult {
  /** True when requests were still running at the timeout and their connections were closed. */
  readonly timedOut: boolean;
}

// How long a connection must have carried nothing before the drain closes it. Closing a keep-alive
// connection races with the client's next request on it (which would meet a reset): a connection
// whose client sends nothing for this long is not in use, and one that is gets its next answer with
// `Connection: close`, which ends it cleanly.
const IDLE_CLOSE_MS = 250;

/**
 * Stops an HTTP server the way an orchestrated service must: every answer from the first moment of
 * the shutdown says `Connection: close`, no new connections once the drain starts, every request
 * already accepted answered, and keep-alive connections closed once their client has let them fall
 * idle, without racing a request the client is sending.
 *
 * @example
 * const drain = new ServerDrain(server);   // before the server listens
 * drain.closeConnections();                // the shutdown has started
 * const { timedOut } = await drain.drain(10_000);
 */
export class ServerDrain {
  readonly #server: http.Server;
  readonly #pending = new Set<http.ServerResponse>();
  // Each open connection, with what it had read when it was last seen doing something, and when.
  readonly #sockets = new Map<Socket, { bytesRead: number; at: number }>();
  #isClosingConnections = false;

  constructor(server: http.Server) {
    this.#server = server;
    // Ahead of the application's listener: a handler may answer synchronously, and the
    // `Connection: close` of a shutdown has to be set before it does.
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) =>
      this.#track(res),
    );
    server.on('connection', (socket: Socket) => {
      this.#sockets.set(socket, { bytesRead: 0, at: performance.now() });
      socket.once('close', () => this.#sockets.delete(socket));
    });
  }

  /** The requests being handled now. @example logger.info({ inFlight: drain.inFlight }, 'draining') */
  get inFlight(): number {
    return this.#pending.size;
  }

  /**
   * Makes every answer from now on, and those not yet started, close its connection: clients open
   * new connections while the server still accepts, and none is left idle for the drain to cut.
   * @example drain.closeConnections()
   */
  closeConnections(): void {
    this.#isClosingConnections = true;
    for (const res of this.#pending) closeAfter(res);
  }

  /**
   * Stops accepting, lets the requests in flight finish and resolves once every connection is
   * closed; past `timeoutMs` it closes the connections still open and reports a timeout.
   *
   * @example
   * if ((await drain.drain(300)).timedOut) logger.warn({}, 'drain timed out');
   */
  async drain(timeoutMs: number): Promise<DrainResult> {
    this.closeConnections();
    // net's close, not http's: http's would also close the connections idle at this instant, racing
    // the requests their clients may be sending on them right now.
    const closed = new Promise<boolean>((resolve) =>
      net.Server.prototype.close.call(this.#server, () => resolve(true)),
    );
    const sweeper = setInterval(() => this.#closeIdle(), IDLE_CLOSE_MS / 5);
    const isClosed = await settleWithin(closed, timeoutMs, () => false).finally(() => clearInterval(sweeper));
    if (isClosed) return { timedOut: false };
    // Only a request still unanswered makes it a timeout; a connection still closing, or one whose
    // request had not fully arrived, is simply closed.
    const timedOut = this.#pending.size > 0;
    this.#server.closeAllConnections();
    return { timedOut };
  }

  #closeIdle(): void {
    const now = performance.now();
    const busy = new Set<unknown>([...this.#pending].map((res) => res.socket));
    for (const [socket, seen] of this.#sockets) {
      if (busy.has(socket) || socket.bytesRead !== seen.bytesRead) {
        this.#sockets.set(socket, { bytesRead: socket.bytesRead, at: now });
      } else if (now - seen.at >= IDLE_CLOSE_MS) {
        socket.destroy();
      }
    }
  }

  #track(res: http.ServerResponse): void {
    this.#pending.add(res);
    if (this.#isClosingConnections) closeAfter(res);
    // Read now: Node detaches the socket from the response once it is sent.
    const socket = res.socket;
    res.once('close', () => {
      this.#pending.delete(res);
      // Its idle time starts now, not when it last read.
      if (socket && this.#sockets.has(socket))
        this.#sockets.set(socket, { bytesRead: socket.bytesRead, at: performance.now() });
    });
  }
}

/** Makes Node close the connection once `res` is sent, when its headers are not out yet. */
function closeAfter(res: http.ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}
