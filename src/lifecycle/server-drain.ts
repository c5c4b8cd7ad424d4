import type http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import { settleWithin } from './settle-within';
import { PendingResponses } from './pending-responses';

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
 * server.on('request', drain.tracking(listener));
 * drain.closeConnections();                // the shutdown has started
 * const { timedOut } = await drain.drain(10_000);
 */
export class ServerDrain {
  readonly #server: http.Server;
  readonly #pending = new PendingResponses();
  // Each open connection, with what it had read when it was last seen doing something, and when.
  readonly #sockets = new Map<Socket, { bytesRead: number; at: number }>();
  #isClosingConnections = false;
  readonly #onResponseClose: (this: http.ServerResponse) => void;

  constructor(server: http.Server) {
    this.#server = server;
    // One listener for every response, not a closure each: Node calls it with the response as `this`.
    const release = (res: http.ServerResponse): void => this.#release(res);
    this.#onResponseClose = function (this: http.ServerResponse) {
      release(this);
    };
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
    for (const res of this.#pending.list()) closeAfter(res);
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
    const busy = new Set<unknown>(this.#pending.list().map((res) => res.socket));
    for (const [socket, seen] of this.#sockets) {
      if (busy.has(socket) || socket.bytesRead !== seen.bytesRead) {
        this.#sockets.set(socket, { bytesRead: socket.bytesRead, at: now });
      } else if (now - seen.at >= IDLE_CLOSE_MS) {
        socket.destroy();
      }
    }
  }

  #release(res: http.ServerResponse): void {
    this.#pending.delete(res);
    if (!this.#isClosingConnections) return;
    // While draining, its connection's idle time starts now, not when it last read. (The request
    // keeps its socket; Node detaches the response's once it is sent.)
    const socket = res.req.socket;
    if (this.#sockets.has(socket))
      this.#sockets.set(socket, { bytesRead: socket.bytesRead, at: performance.now() });
  }

  /**
   * The server's request listener: `listener`, with each request counted in flight until its
   * response closes. One listener, not a second one ahead of it: Node's `emit` is cheapest with
   * one, and the count (and a shutdown's `Connection: close`) still comes before any answer.
   *
   * @example
   * server.on('request', drain.tracking(dispatcher.handle));
   */
  tracking(listener: RequestListener): RequestListener {
    return (req, res) => {
      this.#pending.add(res);
      if (this.#isClosingConnections) closeAfter(res);
      res.on('close', this.#onResponseClose);
      listener(req, res);
    };
  }
}

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Makes Node close the connection once `res` is sent, when its headers are not out yet. */
function closeAfter(res: http.ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}
