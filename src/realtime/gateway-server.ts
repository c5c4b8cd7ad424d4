import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type * as Ws from 'ws';
import type { Container } from '../container/container';
import type { Class } from '../container/token';
import { HttpError } from '../errors/http-error';
import { RealtimeErrors } from '../errors/realtime-errors';
import type { Context } from '../http/context';
import type { ServerClasses } from '../http/express-objects';
import type { Logger } from '../logging/logger';
import type { Metrics } from '../observability/metrics';
import type { RouteDefinition } from '../routing/route';
import { declaredHooks } from '../hooks/declared-hooks';
import { gatewayOf } from './gateway-decorators';
import { FrameRefusal, planGateway, type GatewayCall, type GatewayPlan } from './gateway-plan';
import { CloseCode, RealtimeSocket, type SocketWatch } from './realtime-socket';
import { Broadcast } from './broadcast';
import { NO_REALTIME_COUNTERS, realtimeCounters, type RealtimeCounters } from './realtime-metrics';

/** An upgrade on its way through the pipeline: what its route needs to complete it. */
interface PendingUpgrade {
  readonly socket: Duplex;
  readonly head: Buffer;
  readonly gateway: Gateway;
}

interface Gateway {
  readonly plan: GatewayPlan;
  readonly wss: Ws.WebSocketServer;
}

// A socket closed 1001 at shutdown whose client does not answer the close frame is cut after this.
const CLOSE_GRACE_MS = 2000;

/**
 * Serves the application's `@Gateway` classes on its own HTTP server: an upgrade request goes
 * through the pipeline as a GET of the gateway's path (so the application's middleware,
 * authentication and guards decide it, and a refusal is a plain HTTP answer), and only the route's
 * handler upgrades it. An upgrade to a path no gateway serves is refused 404, never answered as a GET.
 * @internal built at boot; the application attaches it to its server
 *
 * @example
 * const gateways = GatewayServer.from(container, logger);
 * router.add(...gateways.routes());
 * gateways.attach(server, pipeline.serverClasses, pipeline.handleOnServer);
 */
export class GatewayServer {
  readonly #gateways = new Map<string, Gateway>();
  readonly #pending = new WeakMap<http.IncomingMessage, PendingUpgrade>();
  readonly #sockets = new Set<Ws.WebSocket>();
  readonly #logger: Logger;
  readonly #counters: RealtimeCounters;
  readonly #resolve: <T>(type: Class<T>) => T;
  readonly #subscribe: SocketWatch['subscribe'];
  #isClosing = false;

  private constructor(parts: {
    plans: readonly GatewayPlan[];
    logger: Logger;
    metrics: Metrics | undefined;
    resolve: <T>(type: Class<T>) => T;
    broadcast: Broadcast | undefined;
  }) {
    this.#logger = parts.logger;
    const { broadcast } = parts;
    this.#subscribe = broadcast && ((channel, listener) => broadcast.subscribe(channel, listener));
    this.#resolve = parts.resolve;
    // The series exist only where there is something to count: an application without a gateway
    // scrapes no realtime series.
    this.#counters =
      parts.plans.length > 0 ? realtimeCounters(parts.metrics, 'websocket') : NO_REALTIME_COUNTERS;
    if (parts.plans.length === 0) return;
    // Loaded only by an application with a gateway.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load
    const { WebSocketServer } = require('ws') as typeof Ws;
    for (const plan of parts.plans) {
      const other = this.#gateways.get(plan.path);
      if (other) throw RealtimeErrors.gatewayConflict(plan.path, other.plan.name, plan.name);
      const wss = new WebSocketServer({
        noServer: true,
        maxPayload: plan.options.maxPayload,
        clientTracking: false,
      });
      this.#gateways.set(plan.path, { plan, wss });
    }
  }

  /** The gateways among the container's providers. @example GatewayServer.from(container, logger, metrics) */
  static from(container: Container, logger: Logger, metrics: Metrics | undefined): GatewayServer {
    const plans = container
      .instances()
      .filter((instance): instance is object => typeof instance === 'object' && instance !== null)
      .filter((instance) => gatewayOf(instance.constructor) !== undefined)
      .map((instance) => planGateway(instance.constructor as Class, instance));
    return new GatewayServer({
      plans,
      logger,
      metrics,
      resolve: (type) => container.construct(type),
      broadcast: container.has(Broadcast) ? container.get(Broadcast) : undefined,
    });
  }

  /** The sockets open now. @example gateways.size */
  get size(): number {
    return this.#sockets.size;
  }

  /**
   * One GET route per gateway, which upgrades the request it is given once the pipeline (middleware,
   * authentication, guards) lets it through; a plain GET of the path is 426.
   */
  routes(): RouteDefinition[] {
    return [...this.#gateways.values()].map((gateway) => ({
      method: 'GET',
      path: gateway.plan.path,
      name: `gateway.${gateway.plan.name}`,
      source: `${gateway.plan.name} (WebSocket ${gateway.plan.path})`,
      doc: { hidden: true },
      hooks: declaredHooks(gateway.plan.type, 'constructor', this.#resolve),
      handler: (ctx, req) => this.#upgrade(ctx, req),
    }));
  }

  /** Takes the server's upgrade requests: a gateway's go through `handle`, every other one is 404. */
  attach(server: http.Server, classes: ServerClasses, handle: http.RequestListener): void {
    for (const { plan } of this.#gateways.values()) this.#pingEvery(plan.options.pingIntervalMs);
    server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      const gateway = this.#gateways.get(pathOf(req.url));
      const isWebSocket = req.headers.upgrade?.toLowerCase() === 'websocket';
      if (!gateway || !isWebSocket || req.method !== 'GET') return refuse(socket, 404, 'not found');
      if (this.#isClosing) return refuse(socket, 503, RealtimeErrors.upgradeRefused().message);
      this.#pending.set(req, { socket, head, gateway });
      // The pipeline answers through a response of its own on the socket: a refusal is plain HTTP.
      const res = new classes.ServerResponse(req);
      res.shouldKeepAlive = false;
      res.assignSocket(socket as unknown as import('node:net').Socket);
      res.on('finish', () => {
        if (this.#pending.delete(req)) socket.end();
      });
      handle(req, res);
    });
  }

  /** Closes every socket 1001 ("going away") and refuses new upgrades: the shutdown's drain. */
  closeAll(): void {
    this.#isClosing = true;
    for (const ws of this.#sockets) {
      ws.close(CloseCode.goingAway, 'server shutting down');
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    }
  }

  #upgrade(ctx: Context, req: http.IncomingMessage): undefined {
    const pending = this.#pending.get(req);
    if (!pending) throw RealtimeErrors.upgradeRequired();
    this.#pending.delete(req);
    // Taken over: the pipeline writes nothing more; the socket now belongs to ws.
    const res = ctx.res;
    res.detachSocket(pending.socket as unknown as import('node:net').Socket);
    const { wss, plan } = pending.gateway;
    wss.handleUpgrade(req, pending.socket, pending.head, (ws) => this.#open(ws, plan, ctx));
    return undefined;
  }

  #open(ws: Ws.WebSocket, plan: GatewayPlan, ctx: Context): void {
    const socket = new RealtimeSocket(ws, ctx.user, {
      maxBuffered: plan.options.maxBuffered,
      onSent: () => this.#counters.message('out'),
      subscribe: this.#subscribe,
    });
    this.#sockets.add(ws);
    this.#counters.connections(1);
    let isAlive = true;
    ws.on('pong', () => (isAlive = true));
    alive.set(ws, () => {
      const was = isAlive;
      isAlive = false;
      return was;
    });
    ws.on('error', (error) => this.#logger.debug({ err: error, gateway: plan.name }, 'WebSocket error'));
    ws.on('message', (data, isBinary) => {
      this.#counters.message('in');
      void this.#frame(plan, { socket, ctx, data: undefined }, isBinary ? undefined : data.toString());
    });
    ws.on('close', () => {
      socket.leaveAll();
      this.#sockets.delete(ws);
      this.#counters.connections(-1);
      for (const method of plan.disconnect)
        void this.#run(method({ socket, ctx, data: undefined }), socket, plan);
    });
    if (this.#isClosing) return ws.close(CloseCode.goingAway, 'server shutting down');
    for (const method of plan.connect) void this.#run(method({ socket, ctx, data: undefined }), socket, plan);
  }

  async #frame(plan: GatewayPlan, call: GatewayCall, text: string | undefined): Promise<void> {
    const frame = parseFrame(text);
    if (frame instanceof FrameRefusal) return void sendError(call.socket, frame);
    const method = plan.messages.get(frame.event);
    if (!method) return void sendError(call.socket, new FrameRefusal(`unknown event '${frame.event}'`));
    const value = await this.#run(method({ ...call, data: frame.data }), call.socket, plan);
    if (value !== undefined && value !== NOTHING) call.socket.send(frame.event, value);
  }

  // A method's failure is the client's error frame; the socket stays open.
  async #run(result: Promise<unknown>, socket: RealtimeSocket, plan: GatewayPlan): Promise<unknown> {
    try {
      return await result;
    } catch (error) {
      if (error instanceof FrameRefusal) sendError(socket, error);
      else if (error instanceof HttpError && error.status < 500)
        sendError(socket, new FrameRefusal(error.message));
      else {
        this.#logger.error({ err: error, gateway: plan.name }, 'a gateway method failed');
        sendError(socket, new FrameRefusal('internal server error'));
      }
      return NOTHING;
    }
  }

  #pingEvery(intervalMs: number): void {
    const timer = setInterval(() => {
      for (const ws of this.#sockets) {
        if (alive.get(ws)?.() === false) ws.terminate();
        else ws.ping();
      }
    }, intervalMs);
    timer.unref();
  }
}

const NOTHING = Symbol('nothing');
const alive = new WeakMap<Ws.WebSocket, () => boolean>();

function parseFrame(text: string | undefined): { event: string; data: unknown } | FrameRefusal {
  if (text === undefined) return new FrameRefusal('frames are JSON text: { "event": "...", "data": ... }');
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return new FrameRefusal('malformed JSON frame');
  }
  if (typeof frame !== 'object' || frame === null || typeof (frame as { event?: unknown }).event !== 'string')
    return new FrameRefusal('a frame is { "event": "...", "data": ... }');
  return frame as { event: string; data: unknown };
}

function sendError(socket: RealtimeSocket, refusal: FrameRefusal): void {
  socket.send(
    'error',
    refusal.fields ? { error: refusal.error, fields: refusal.fields } : { error: refusal.error },
  );
}

function pathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

// Written by hand: the request never reached the pipeline, and the socket is not upgraded.
function refuse(socket: Duplex, status: 404 | 503, message: string): void {
  const body = JSON.stringify({ error: message });
  const reason = status === 404 ? 'Not Found' : 'Service Unavailable';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
