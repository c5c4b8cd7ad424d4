import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pinnedCommand } from './cpu-pinning';
import { closedPort } from '../../../test/factories/test-databases';
import { waitForStatus } from '../../../test/factories/http-status';

/** A server under test: its name in the tables and its compiled entry point. */
export interface ServerKind {
  name: string;
  script: string;
  /** Extra environment for the process. */
  env?: Record<string, string>;
}

/**
 * The servers, in the order every round visits them: keel, what it is built on (Express), what
 * users compare it with (NestJS, Fastify with its defaults), and the limit (bare `node:http`).
 */
export const SERVERS: readonly ServerKind[] = [
  { name: 'keel', script: 'keel-server.js' },
  { name: 'express', script: 'express-server.js' },
  { name: 'nest', script: 'nest-server.js' },
  { name: 'fastify', script: 'fastify-server.js' },
  { name: 'node', script: 'node-http-server.js' },
];

const SERVERS_DIR = path.join(__dirname, '..', 'servers');
const BOOT_TIMEOUT_MS = 30_000;

/** Settings shared by every server process the runner starts. */
export interface ServerLaunch {
  databaseUrl: string;
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
    /** Milliseconds from spawn to the first 200 on `/health`. */
    readonly startupMs: number,
  ) {}

  /** Spawns the server and resolves once `/health` answers 200. */
  static async start(kind: ServerKind, launch: ServerLaunch): Promise<ServerProcess> {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const nodeArgs = launch.nodeArgs ?? [];
    const [command, args] = pinnedCommand(launch.core, [
      process.execPath,
      ...nodeArgs,
      path.join(SERVERS_DIR, kind.script),
    ]);
    const startedAt = performance.now();
    const child = spawn(command, args, {
      env: {
        ...process.env,
        ...kind.env,
        PORT: String(port),
        DATABASE_URL: launch.databaseUrl,
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`${kind.name} exited with ${code} while booting`))),
    );
    await Promise.race([waitForStatus(`${baseUrl}/health`, 200, BOOT_TIMEOUT_MS), exited]);
    return new ServerProcess(kind, baseUrl, child, performance.now() - startedAt);
  }

  /** Resident set size in bytes, read from /proc (the process itself is never asked). */
  rssBytes(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kilobytes = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return Number(kilobytes ?? 0) * 1024;
  }

  /** Asks the server to stop (SIGTERM), and kills it if it has not within five seconds. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
