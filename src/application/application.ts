import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ShutdownSettings } from './options';
import type { ApplicationParts } from './boot';
import { runCommand } from './run-command';
import { serverTimeouts } from './server-timeouts';
import { bodilessRequests } from './bodiless-requests';
import { isCliCommand } from '../cli/command-words';
import type { Container } from '../container/container';
import type { Token } from '../container/token';
import { answerClientErrors, refuseConnect } from '../http/socket-answers';
import type { MiddlewareEntry } from '../http/middleware';
import type { Express, Pipeline } from './pipeline';
import { LifecycleErrors } from '../errors/lifecycle-errors';
import { RequestErrors } from '../errors/request-errors';
import { respondOnBareResponse } from '../http/error-responder';
import type { ErrorShape } from '../http/error-shape';
import { APP_LISTENERS } from '../lifecycle/app-listeners';
import { checkMilliseconds } from '../lifecycle/option-checks';
import {
  markRunningCommand,
  markShuttingDown,
  type ApplicationStatus,
} from '../lifecycle/application-status';
import type { BootstrapHooks } from '../lifecycle/bootstrap-hooks';
import { bindServer, urlOf } from '../lifecycle/server-binding';
import { ServerDrain } from '../lifecycle/server-drain';
import { shutDown } from '../lifecycle/shutdown';
import { handleShutdownSignals } from '../lifecycle/signal-handling';
import { createLogger, type Logger } from '../logging/logger';
import type { GatewayServer } from '../realtime/gateway-server';
import type { Router } from '../routing/router';
import type { RouteParams, RouteQuery } from '../http/route-info';

let listenerOf: (app: Application) => http.RequestListener;

/**
 * The function that serves `app`'s requests, for keel's own in-process requests; not exported by
 * `keel`, since it accepts only node:http's request and response. @internal
 *
 * @example
 * const res = await inject(requestListenerOf(app), { url: '/health' });
 */
export function requestListenerOf(app: Application): http.RequestListener {
  return listenerOf(app);
}

/** Where `listen()` bound the server. */
export interface BoundAddress extends AddressInfo {
  /** `http://host:port`, ready to open: `localhost` when the server listens on every interface. */
  readonly url: string;
}

// How long, past shutdownDelayMs + shutdownTimeoutMs, a signalled shutdown may run before the
// process exits anyway: a drain that times out still gets to run the onApplicationShutdown hooks.
const HOOKS_GRACE_MS = 1000;

/**
 * A booted keel application: its container, its routes, and the server that answers them.
 *
 * @example
 * const app = await createApplication(AppModule);
 * const { url } = await app.listen(8080);
 */
export class Application {
  readonly router: Router;
  readonly logger: Logger;
  readonly #container: Container;
  readonly #pipeline: Pipeline;
  readonly #status: ApplicationStatus;
  #settings: ShutdownSettings;
  readonly #bootstrapHooks: BootstrapHooks;
  readonly #errorShape: ErrorShape;
  readonly #gateways: GatewayServer;
  #server: http.Server | undefined;
  #drain: ServerDrain | undefined;
  #bound: BoundAddress | undefined;
  #removeSignalHandlers: (() => void) | undefined;
  #closing: Promise<void> | undefined;

  /** @internal use {@link createApplication} */
  constructor(parts: ApplicationParts) {
    this.#container = parts.container;
    this.#pipeline = parts.pipeline;
    this.router = parts.pipeline.router;
    this.#status = parts.status;
    this.logger = parts.logger;
    this.#settings = parts.settings;
    this.#bootstrapHooks = parts.bootstrapHooks;
    this.#errorShape = parts.errorShape;
    this.#gateways = parts.gateways;
  }

  /**
   * The Express application underneath: its middleware (`app.express.use(helmet())`), added before
   * or after boot, runs for every request before keel parses anything; its settings and `locals`
   * are the ones requests see. @example app.express.use(helmet())
   */
  get express(): Express {
    return this.#pipeline.handOutExpress();
  }

  /**
   * Adds middleware that runs after the body is parsed and `_method` applied, before routing, for
   * every request: Express middleware, `@Injectable()` classes with `use(req, res, next)` (built
   * through DI), or Express error middleware (four arguments), which sees every error of the
   * pipeline before keel's responder. Before or after boot.
   * @example app.use(cors(), RequestIdMiddleware)
   */
  use(...middleware: MiddlewareEntry[]): this {
    this.#pipeline.use(middleware);
    return this;
  }

  // The whole pipeline for one request, whatever created it: what `listen()` serves and in-process
  // requests (`keel/testing`'s inject) use. Reached through requestListenerOf(), never as a method:
  // it trusts its arguments to be node:http's own request and response.
  #handleRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.#bootstrapHooks.isDone) return this.#pipeline.handle(req, res);
    this.#bootstrapHooks.run().then(
      () => this.#pipeline.handle(req, res),
      (error: unknown) => {
        this.logger.error({ err: error }, 'onApplicationBootstrap failed');
        respondOnBareResponse(res, RequestErrors.internalServerError(), this.#errorShape);
      },
    );
  }

  static {
    listenerOf = (app) => (req, res) => app.#handleRequest(req, res);
  }

  /**
   * True from the moment a shutdown starts (a signal or `close()`), while the server may still be
   * serving: readiness answers 503 from it so the orchestrator stops sending traffic.
   * @example app.router.get('/ready', (ctx) => ctx.json(app.isShuttingDown ? 503 : 200, {}))
   */
  get isShuttingDown(): boolean {
    return this.#status.isShuttingDown;
  }

  /**
   * The path of the route named `name`, outside a request: parameters percent-encoded, `query`
   * appended; an unknown name or a missing parameter throws an error naming it.
   * @example app.urlFor('orders.show', { id: 7 }, { tab: 'items' }) // '/orders/7?tab=items'
   */
  urlFor(name: string, params?: RouteParams, query?: RouteQuery): string {
    return this.router.urlFor(name, params, query);
  }

  /** The instance the container holds for `token`. @example app.get(OrderService) */
  get<T>(token: Token<T>): T {
    return this.#container.get(token);
  }

  /**
   * Sets `shutdownDelayMs` from what only the container holds (the configuration), before the
   * application listens: the delay bounds the shutdown a signal starts.
   * @example app.setShutdownDelay(app.get(Env).SHUTDOWN_DELAY_MS)
   */
  setShutdownDelay(delayMs: number): void {
    if (this.#server) throw LifecycleErrors.settingAfterListen('setShutdownDelay()');
    this.#settings = { ...this.#settings, shutdownDelayMs: checkMilliseconds('shutdownDelayMs', delayMs) };
  }

  /**
   * Starts serving on `port` (0 picks a free one; default `PORT`, else 8080) and resolves with the
   * bound address, once the `onApplicationBootstrap` hooks have run (one that throws rejects it). Unless `handleSignals` is false, SIGTERM and SIGINT then shut the application
   * down gracefully and exit. Once per application: a second call rejects.
   * @example const { port } = await app.listen(0, '127.0.0.1')
   */
  async listen(port: number = Number(process.env.PORT ?? 8080), host?: string): Promise<BoundAddress> {
    if (this.#closing) throw LifecycleErrors.applicationClosed();
    await this.#bootstrapHooks.run();
    if (this.#closing) throw LifecycleErrors.applicationClosed();
    if (this.#server) throw LifecycleErrors.alreadyListening(this.#bound?.url);
    // Claimed before the next await, so that a concurrent second call is refused too.
    // Requests and responses are made with Express's helpers already in place: nothing per request.
    const server = http.createServer({
      ...this.#pipeline.serverClasses,
      ...serverTimeouts(this.#settings),
      ...bodilessRequests(this.#settings),
    });
    refuseConnect(server, this.#errorShape);
    answerClientErrors(server, this.#errorShape);
    if (this.#settings.maxConnections !== undefined) server.maxConnections = this.#settings.maxConnections;
    this.#server = server;
    this.#drain = new ServerDrain(server);
    server.on('request', this.#drain.tracking(this.#pipeline.handleOnServer));
    // Always: without a listener, Node would answer an upgrade as a plain GET.
    this.#gateways.attach(server, this.#pipeline.serverClasses, this.#pipeline.handleOnServer);
    await bindServer(server, port, host).catch((error: unknown) => this.#abandon(server, error));
    // close() ran while the port was being bound, and its drain found nothing listening yet.
    if (this.#closing) {
      server.close();
      throw LifecycleErrors.applicationClosed();
    }
    await this.#openListeners(host).catch((error: unknown) => this.#abandon(server, error));
    const address = server.address() as AddressInfo;
    this.#bound = { ...address, url: urlOf(address) };
    if (this.#settings.handleSignals) this.#handleSignals();
    this.logger.info({ url: this.#bound.url }, 'listening');
    return this.#bound;
  }

  /**
   * Shuts down: waits `shutdownDelayMs` (still serving), runs the `beforeApplicationShutdown` hooks,
   * stops accepting and lets the requests in flight finish (for at most `shutdownTimeoutMs`), then
   * runs the `onApplicationShutdown` hooks. A hook that throws does not stop the others; the
   * returned promise then rejects with `E_SHUTDOWN_FAILED`, as it does after a drain that timed out.
   * Calling it again returns the same promise.
   * @example afterAll(() => app.close())
   */
  close(signal?: string): Promise<void> {
    return this.#close({ signal, logger: this.logger, delayMs: this.#settings.shutdownDelayMs });
  }

  /**
   * Runs the command `argv` names (`node dist/main.js make:controller Order`, `node dist/main.js
   * routes`), then closes the application and sets `process.exitCode`; with no arguments, or only
   * options, listens on `port` (default `PORT`, else 8080) and `host` (default every interface) and
   * resolves with the bound address. A
   * first word that names no command is a usage mistake (exit 2), never a reason to serve. A command
   * runs no `onApplicationBootstrap` hook and connects no database unless it needs one (`migrate`):
   * call it in the same turn as `createApplication`, as the hooks start on the next one.
   * @example await app.run(process.argv, config.PORT, config.HOST)
   */
  async run(
    argv: readonly string[] = process.argv,
    port?: number,
    host?: string,
  ): Promise<BoundAddress | undefined> {
    if (!isCliCommand(argv[2])) return this.listen(port, host);
    // Said before anything is awaited: the database connector, which starts on the next turn of the
    // event loop, then stays idle, and a migration command connects the DataSource itself.
    markRunningCommand(this.#status);
    process.exitCode = await runCommand(argv, {
      router: this.router,
      container: this.#container,
      // Quietly, since its log lines would follow the command's output on stdout, and at once: an
      // application that never listened has no traffic to wait out.
      close: () => this.#close({ signal: undefined, logger: createLogger(false), delayMs: 0 }),
    });
    return undefined;
  }

  // A listen() that failed leaves the application as if it had never been called.
  #abandon(server: http.Server, error: unknown): never {
    if (server.listening) server.close();
    this.#server = undefined;
    this.#drain = undefined;
    throw error;
  }

  // Modules' own servers (metrics on their own port) open on the same host, once the application's
  // is bound: one that cannot bind fails listen() as the application's own would.
  async #openListeners(host: string | undefined): Promise<void> {
    for (const listener of this.#container.getAll(APP_LISTENERS)) await listener.listen(host);
  }

  #close({
    signal,
    logger,
    delayMs,
  }: {
    signal: string | undefined;
    logger: Logger;
    delayMs: number;
  }): Promise<void> {
    markShuttingDown(this.#status);
    // With a delay, the orchestrator is taking the instance out of its load balancer: answers say
    // `Connection: close` at once, so that keep-alive clients reconnect, and reach another instance.
    // Without one, they would reconnect here, and meet the listener closing; the drain says it then.
    if (delayMs > 0) this.#drain?.closeConnections();
    // Started a tick later, so that `#closing` is set before the first hook runs: a hook that
    // calls close() gets this same shutdown.
    this.#closing ??= Promise.resolve()
      .then(() =>
        shutDown({
          instances: this.#container.instances().reverse(),
          drain: this.#drain,
          // WebSockets close 1001 where event streams end: once the server stops accepting.
          streams: {
            endAll: () => {
              this.#pipeline.streams.endAll();
              this.#gateways.closeAll();
            },
          },
          logger,
          delayMs,
          timeoutMs: this.#settings.shutdownTimeoutMs,
          signal,
        }),
      )
      .finally(() => this.#removeSignalHandlers?.());
    return this.#closing;
  }

  #handleSignals(): void {
    const { shutdownDelayMs, shutdownTimeoutMs } = this.#settings;
    this.#removeSignalHandlers = handleShutdownSignals({
      shutDown: (signal) => this.close(signal),
      isShuttingDown: () => this.isShuttingDown,
      hardDeadlineMs: shutdownDelayMs + shutdownTimeoutMs + HOOKS_GRACE_MS,
      logger: this.logger,
    });
  }
}
