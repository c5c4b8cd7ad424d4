import type { Request, Response } from 'express';
import { createContext, type Context, type ContextTarget, type RouteRuntime } from './context';
import type { RequestState } from './request-state';

/**
 * One request as keel's own code sees it: the request, the response and the context handed to the
 * handler, plus what the handler is never shown (whether it took the response over, whether the
 * answer has started). Created once per request by its endpoint, or by the dispatcher for filters
 * of an error no route owns.
 *
 * @example
 * const exchange = new Exchange(req, res, runtime, state);
 * await handler(exchange.ctx, exchange.req);
 * if (!exchange.hasResponded && !exchange.isTakenOver) throw Errors.noResponse(route);
 */
export class Exchange implements ContextTarget {
  /** Set when the handler reads `ctx.res`: it answers (or streams) by itself from then on. */
  isTakenOver = false;
  readonly ctx: Context;

  constructor(
    readonly req: Request,
    readonly res: Response,
    readonly runtime: RouteRuntime,
    readonly state: RequestState,
  ) {
    this.ctx = createContext(this, runtime);
  }

  /** Whether the response has started: nothing more can be sent through the context. */
  get hasResponded(): boolean {
    return this.res.headersSent || this.res.writableEnded;
  }
}

/**
 * A route's handler as keel calls it: the context, and the request under it for keel's own reads
 * (a whole query bound into a class), which must not load Express as `ctx.req` does.
 *
 * @example
 * const handler: PreparedHandler = (ctx, req) => bindQuery(req, Filter);
 */
export type PreparedHandler = (ctx: Context, req: Request) => unknown;
