import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRODUCTION_ROUTES, ROUTES, VALIDATION_ROUTES, type BenchRoute } from '../measure/routes';
import { checkRoute } from './answer-check';
import { BENCH_NODE_PATH } from './bench-node';
import { pinnedCommand } from './cpu-pinning';
import { closedPort } from '../../../test/factories/test-databases';
import { waitForStatus } from '../../../test/factories/http-status';

/** A server under test: its name in the tables and its compiled entry point. */
export interface ServerKind {
  name: string;
  script: string;
  /** Extra environment for the process. */
  env?: Record<string, string>;
  /** The routes whose answers are checked once it is up, before it is measured. */
  routes?: readonly BenchRoute[];
  /** Its stdout (its log) goes to a file of its own; the routes checked must appear in it. */
  logsToFile?: boolean;
  /** A path that must answer 200 with Prometheus text before it is measured. */
  metricsPath?: string;
}

/**
 * The servers, in the order every round visits them: keel, what it is built on (Express), what
 * users compare it with (NestJS, Fastify with its defaults), and the limit (bare `node:http`).
 */
export const SERVERS: readonly ServerKind[] = [
  { name: 'keel', script: 'keel-server.js', routes: ROUTES },
  { name: 'express', script: 'express-server.js', routes: ROUTES },
  { name: 'nest', script: 'nest-server.js', routes: ROUTES },
  { name: 'fastify', script: 'fastify-server.js', routes: ROUTES },
  { name: 'node', script: 'node-http-server.js', routes: ROUTES },
];

/**
 * The same servers with request logging and metrics on (`PRODUCTION=1`), as each framework's users
 * set them up; bare `node:http` has no such setup to compare.
 */
export const PRODUCTION_SERVERS: readonly ServerKind[] = SERVERS.filter(({ name }) => name !== 'node').map(
  (kind) => ({
    ...kind,
    env: { PRODUCTION: '1' },
    routes: PRODUCTION_ROUTES,
    logsToFile: true,
    metricsPath: '/metrics',
  }),
);

/**
 * keel and Fastify, the two that serve the order validated by zod beside their usual validator:
 * the zod route (ZOD_ROUTE=1) is theirs in this phase only, so that every other phase starts
 * each server with the same five routes, none of them loading zod.
 */
export const VALIDATION_SERVERS: readonly ServerKind[] = SERVERS.filter(
  ({ name }) => name === 'keel' || name === 'fastify',
).map((kind) => ({ ...kind, routes: VALIDATION_ROUTES, env: { ...kind.env, ZOD_ROUTE: '1' } }));

const SERVERS_DIR = path.join(__dirname, '..', 'servers');
const BOOT_TIMEOUT_MS = 30_000;

/** Settings shared by every server process the runner starts. */
export interface ServerLaunch {
  databaseUrl: string;
  /** The seeded table behind `GET /api/orders/:id`. */
  ordersTable: string;
  core: number | undefined;
  /** Extra arguments for node, such as `--cpu-prof`. */
  nodeArgs?: string[];
}

/** One running server process, pinned to its core, listening on 127.0.0.1. */
export class ServerProcess {
  private constructor(
    readonly kind: ServerKind,
    readonly baseUrl: string,
    readonly child: ChildProcess,
    /** The file its stdout goes to (`logsToFile`), deleted when it stops. */
    readonly logFile: string | undefined,
  ) {}

  #startupMs = Number.NaN;

  /** Milliseconds from spawn to the first 200 on `/health`. */
  get startupMs(): number {
    return this.#startupMs;
  }

  /**
   * Spawns the server, resolves once `/health` answers 200 and every route of its kind answers as it
   * must; rejects (and stops it) otherwise.
   */
  static async start(kind: ServerKind, launch: ServerLaunch): Promise<ServerProcess> {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const nodeArgs = launch.nodeArgs ?? [];
    const [command, args] = pinnedCommand(launch.core, [
      BENCH_NODE_PATH,
      ...nodeArgs,
      path.join(SERVERS_DIR, kind.script),
    ]);
    const logFile = kind.logsToFile
      ? path.join(mkdtempSync(path.join(os.tmpdir(), 'keel-bench-log-')), `${kind.name}.log`)
      : undefined;
    const logFd = logFile === undefined ? undefined : openSync(logFile, 'w');
    const startedAt = performance.now();
    const deadline = Date.now() + BOOT_TIMEOUT_MS;
    const child = spawn(command, args, {
      env: {
        ...process.env,
        ...kind.env,
        PORT: String(port),
        DATABASE_URL: launch.databaseUrl,
        ORDERS_TABLE: launch.ordersTable,
        NODE_ENV: 'production',
      },
      stdio: ['ignore', logFd ?? 'ignore', 'inherit'],
    });
    if (logFd !== undefined) closeSync(logFd); // the child holds its own copy
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`${kind.name} exited with ${code} while booting`))),
    );
    exited.catch(() => undefined); // once booted, an exit is the stop's business
    const server = new ServerProcess(kind, baseUrl, child, logFile);
    try {
      await Promise.race([waitForStatus(`${baseUrl}/health`, 200, BOOT_TIMEOUT_MS), exited]);
      server.#startupMs = performance.now() - startedAt;
      await Promise.race([server.#checkAnswers(deadline), exited]);
      return server;
    } catch (error) {
      await server.stop();
      throw error;
    }
  }

  async #checkAnswers(deadline: number): Promise<void> {
    for (const route of this.kind.routes ?? [])
      await checkRoute(this.kind.name, this.baseUrl, route, deadline);
    const { metricsPath, routes } = this.kind;
    if (metricsPath !== undefined) {
      const metrics = await fetch(this.baseUrl + metricsPath);
      const text = await metrics.text();
      if (metrics.status !== 200 || !text.includes('# TYPE '))
        throw new Error(`${this.kind.name} answered ${metricsPath} with ${metrics.status}, not metrics`);
    }
    const lastRoute = routes?.at(-1);
    if (this.logFile !== undefined && lastRoute !== undefined)
      await this.#waitForRequestLog(lastRoute.path, deadline);
  }

  // The requests just checked must have reached the log, not just the boot lines: request logging is on.
  async #waitForRequestLog(requestPath: string, deadline: number): Promise<void> {
    while (!readFileSync(this.logFile as string, 'utf8').includes(`"${requestPath}"`)) {
      if (Date.now() > deadline)
        throw new Error(`${this.kind.name} logged no request for ${requestPath} to ${this.logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Resident set size in bytes, read from /proc (the process itself is never asked). */
  rssBytes(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kilobytes = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return Number(kilobytes ?? 0) * 1024;
  }

  /** Asks the server to stop (SIGTERM), and kills it if it has not within five seconds. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    if (this.logFile !== undefined) rmSync(path.dirname(this.logFile), { recursive: true, force: true });
  }
}
