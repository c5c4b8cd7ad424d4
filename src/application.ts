import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveOptions, type ApplicationOptions } from './application-options';
import { Container } from './container/container';
import { callLifecycleHook } from './container/lifecycle';
import type { ModuleImport } from './container/module-definition';
import type { Token } from './container/token';
import { createHttpPipeline } from './http/http-pipeline';
import { adaptRoute } from './http/route-adapter';
import { ViewRenderer } from './http/views';
import { createLogger, type Logger } from './logging/logger';
import { compileController } from './routing/route-compiler';
import { Router } from './routing/router';

/** Where `listen()` bound the server. */
export interface BoundAddress extends AddressInfo {
  /** `http://host:port`, ready to open. */
  readonly url: string;
}

/**
 * A booted keel application: its container, its routes, the Express app that serves them.
 *
 * @example
 * const app = await createApplication(AppModule);
 * const { url } = await app.listen(8080);
 */
export class Application {
  readonly router: Router;
  /** The Express application: mount any middleware (`app.express.use(helmet())`), before or after boot. */
  readonly express: Express;
  readonly logger: Logger;
  readonly #container: Container;
  #server: http.Server | undefined;
  #closing: Promise<void> | undefined;

  /** @internal use {@link createApplication} */
  constructor(container: Container, router: Router, express: Express, logger: Logger) {
    this.#container = container;
    this.router = router;
    this.express = express;
    this.logger = logger;
  }

  /** The instance the container holds for `token`. @example app.get(OrderService) */
  get<T>(token: Token<T>): T {
    return this.#container.get(token);
  }

  /**
   * Starts serving on `port` (0 picks a free one; default `PORT`, else 8080) and resolves with the
   * bound address. @example const { port } = await app.listen(0, '127.0.0.1')
   */
  async listen(port: number = Number(process.env.PORT ?? 8080), host?: string): Promise<BoundAddress> {
    const server = http.createServer(this.express);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    const address = server.address() as AddressInfo;
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const bound = { ...address, url: `http://${shownHost}:${address.port}` };
    this.logger.info({ url: bound.url }, 'listening');
    return bound;
  }

  /**
   * Shuts down: `beforeApplicationShutdown` hooks, the server stops accepting and finishes the
   * requests in flight, then `onApplicationShutdown` hooks. Calling it again awaits the same shutdown.
   */
  close(signal?: string): Promise<void> {
    this.#closing ??= this.#shutdown(signal);
    return this.#closing;
  }

  async #shutdown(signal?: string): Promise<void> {
    const instances = this.#container.instances().reverse();
    await callLifecycleHook(instances, 'beforeApplicationShutdown', signal);
    const server = this.#server;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    }
    await callLifecycleHook(instances, 'onApplicationShutdown', signal);
    this.logger.info({ signal }, 'shut down');
  }
}

/**
 * Boots an application from its root module: builds the container (creating every provider),
 * compiles the controllers' routes, runs the init hooks, and returns the {@link Application}.
 * Boot errors (unknown dependency, cycle, route conflict, missing action) reject here.
 *
 * @example
 * const app = await createApplication(AppModule, { views: 'views', logger: false });
 */
export async function createApplication(
  root: ModuleImport,
  options: ApplicationOptions = {},
): Promise<Application> {
  const settings = resolveOptions(options);
  const logger = createLogger(settings.logger);
  const container = await Container.create(root);
  const views = new ViewRenderer(settings.views, { cache: process.env.NODE_ENV === 'production' });
  const router = new Router({
    resolve: (type) => container.construct(type),
    adapt: (route) => adaptRoute(route, views, logger),
  });
  for (const { type, instance } of container.controllers()) router.add(...compileController(type, instance));

  const instances = container.instances();
  await callLifecycleHook(instances, 'onModuleInit');
  await callLifecycleHook(instances, 'onApplicationBootstrap');
  const express = createHttpPipeline({ router, logger, bodyLimit: settings.bodyLimit });
  return new Application(container, router, express, logger);
}
