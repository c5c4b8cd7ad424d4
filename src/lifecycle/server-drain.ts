import type http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import { settleWithin } from './settle-within';

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
  // Each open connection, with what it had read when it was last seen doing something, and when.
  // The requests in flight are found from them (the response each is answering), so a request
  // pays for no bookkeeping of its own: only a connection does, once.
  readonly #sockets = new Map<Socket, { bytesRead: number; at: number }>();
  #isClosingConnections = false;

  constructor(server: http.Server) {
    this.#server = server;
    server.on('connection', (socket: Socket) => {
      this.#sockets.set(socket, { bytesRead: 0, at: performance.now() });
      socket.once('close', () => this.#sockets.delete(socket));
    });
  }

  /** The requests being handled now. @example logger.info({ inFlight: drain.inFlight }, 'draining') */
  get inFlight(): number {
    return this.#answering().length;
  }

  /**
   * Makes every answer from now on, and those not yet started, close its connection: clients open
   * new connections while the server still accepts, and none is left idle for the drain to cut.
   * @example drain.closeConnections()
   */
  closeConnections(): void {
    this.#isClosingConnections = true;
    for (const res of this.#answering()) closeAfter(res);
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
    const timedOut = this.inFlight > 0;
    this.#server.closeAllConnections();
    return { timedOut };
  }

  // A connection answering a request is busy, as is one that read something since the last look: the
  // idle time of a connection starts when it was last seen doing either (every 50 ms while draining).
  #closeIdle(): void {
    const now = performance.now();
    for (const [socket, seen] of this.#sockets) {
      if (responseOn(socket) !== undefined || socket.bytesRead !== seen.bytesRead) {
        this.#sockets.set(socket, { bytesRead: socket.bytesRead, at: now });
      } else if (now - seen.at >= IDLE_CLOSE_MS) {
        // Judged again after the poll phase: a request that came while the event loop was held up
        // waits in the kernel while timers run first, and a connection reset with it unread is a
        // request lost (a balancer that sent it on a pooled connection cuts its client off).
        const { bytesRead } = socket;
        setImmediate(() => {
          if (socket.bytesRead === bytesRead) socket.destroy();
        });
      }
    }
  }

  // The responses being written now: the one each open connection is answering.
  #answering(): http.ServerResponse[] {
    const responses: http.ServerResponse[] = [];
    for (const socket of this.#sockets.keys()) {
      const res = responseOn(socket);
      if (res !== undefined) responses.push(res);
    }
    return responses;
  }

  /**
   * The server's request listener: `listener`, whose answers close their connection once the
   * shutdown has started. One listener, not a second one ahead of it: Node's `emit` is cheapest with
   * one, and a shutdown's `Connection: close` still comes before any answer.
   *
   * @example
   * server.on('request', drain.tracking(dispatcher.handle));
   */
  tracking(listener: RequestListener): RequestListener {
    return (req, res) => {
      if (this.#isClosingConnections) closeAfter(res);
      listener(req, res);
    };
  }
}

/**
 * The response a server connection is answering, if any. Node keeps it on the socket from the
 * moment the response is given the connection until it is finished (`_httpMessage`, which Node's
 * own HTTP code and the graceful-shutdown libraries read): a request in flight with its answer not
 * finished, found without a structure kept per request.
 */
function responseOn(socket: Socket): http.ServerResponse | undefined {
  const res = (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  return res ?? undefined;
}

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Makes Node close the connection once `res` is sent, when its headers are not out yet. */
function closeAfter(res: http.ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}
