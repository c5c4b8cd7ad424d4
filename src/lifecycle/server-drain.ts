import type http from 'node:http';
import { settleWithin } from '../settle-within';

/** How a drain ended. */
export interface DrainResult {
  /** True when requests were still running at the timeout and their connections were closed. */
  readonly timedOut: boolean;
}

/**
 * Stops an HTTP server the way an orchestrated service must: no new connections, every request
 * already accepted answered, and keep-alive connections closed as soon as they fall idle rather
 * than at the client's or the server's keep-alive timeout.
 *
 * @example
 * const drain = new ServerDrain(server);   // before the server listens
 * const { timedOut } = await drain.drain(10_000);
 */
export class ServerDrain {
  readonly #server: http.Server;
  readonly #pending = new Set<http.ServerResponse>();
  #isDraining = false;

  constructor(server: http.Server) {
    this.#server = server;
    // Ahead of the application's listener: a handler may answer synchronously, and the
    // `Connection: close` of a drain has to be set before it does.
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) =>
      this.#track(res),
    );
  }

  /** The requests being handled now. @example logger.info({ inFlight: drain.inFlight }, 'draining') */
  get inFlight(): number {
    return this.#pending.size;
  }

  /**
   * Stops accepting, lets the requests in flight finish and resolves once every connection is
   * closed; past `timeoutMs` it closes the connections still open and reports a timeout.
   *
   * @example
   * if ((await drain.drain(300)).timedOut) logger.warn({}, 'drain timed out');
   */
  async drain(timeoutMs: number): Promise<DrainResult> {
    this.#isDraining = true;
    for (const res of this.#pending) closeAfter(res);
    // close() also closes the connections that are idle now; busy ones close as their response ends.
    const closed = new Promise<boolean>((resolve) => this.#server.close(() => resolve(true)));
    const isClosed = await settleWithin(closed, timeoutMs, () => false);
    if (isClosed) return { timedOut: false };
    // Only a request still unanswered makes it a timeout; a connection still closing, or one whose
    // request had not fully arrived, is simply closed.
    const timedOut = this.#pending.size > 0;
    this.#server.closeAllConnections();
    return { timedOut };
  }

  #track(res: http.ServerResponse): void {
    this.#pending.add(res);
    if (this.#isDraining) closeAfter(res);
    res.once('close', () => {
      this.#pending.delete(res);
      // A response whose headers went out before the drain promised keep-alive; its connection is
      // idle now, and nothing else would close it before the keep-alive timeout.
      if (this.#isDraining) this.#server.closeIdleConnections();
    });
  }
}

/** Makes Node close the connection once `res` is sent, when its headers are not out yet. */
function closeAfter(res: http.ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}
