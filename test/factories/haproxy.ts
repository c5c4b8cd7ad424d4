import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eventually } from './eventually';
import { closedPort } from './test-databases';

/** A real HAProxy in front of backends on 127.0.0.1, checking each with `GET /health/ready`. */
export interface Balancer {
  /** `http://127.0.0.1:<port>`, the frontend. */
  readonly url: string;
  /** The servers' states by name (`UP`, `DOWN`, `MAINT`...), from HAProxy's stats socket. */
  states(): Promise<Record<string, string>>;
  /** Resolves once every server named is `UP`; rejects after `timeoutMs`. */
  waitUntilUp(names: readonly string[], timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `haproxy -db` balancing round-robin over `backends` (name → port), each checked with
 * `GET /health/ready` every 300 ms, out after 2 failures and back after 2 successes: the settings
 * of sample/README.md's HAProxy example.
 */
export async function startBalancer(backends: Readonly<Record<string, number>>): Promise<Balancer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keel-haproxy-'));
  const socket = path.join(dir, 'stats.sock');
  const port = await closedPort();
  const servers = Object.entries(backends).map(
    ([name, backend]) => `  server ${name} 127.0.0.1:${backend} check`,
  );
  const config = [
    'global',
    `  stats socket ${socket} level admin`,
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    // As an orchestrator's probe: a readiness answer has a second, however short the interval.
    '  timeout check 1s',
    '  option http-keep-alive',
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    '  option httpchk GET /health/ready',
    '  http-check expect status 200',
    '  default-server inter 300ms fall 2 rise 2',
    ...servers,
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const child = spawn('haproxy', ['-f', file, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A haproxy that could not start (not installed) never exits: its spawn error ends it instead.
  let spawnError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      spawnError = error;
      resolve();
    });
  });
  const balancer: Balancer = {
    url: `http://127.0.0.1:${port}`,
    states: () => readStates(socket),
    async waitUntilUp(names, timeoutMs = 15_000) {
      // A haproxy that is gone will never say UP: the wait ends at once, and says why.
      const ended = await eventually(
        async () => {
          if (spawnError !== undefined || child.exitCode !== null) return 'ended';
          const states = await readStates(socket).catch(() => ({}) as Record<string, string>);
          if (names.every((name) => states[name] === 'UP')) return 'up';
          throw new Error(`server states: ${JSON.stringify(states)}`);
        },
        { within: timeoutMs, what: `${names.join(', ')} UP` },
      );
      if (ended !== 'up')
        throw new Error(
          spawnError ? `haproxy did not start: ${spawnError.message}` : `haproxy exited: ${stderr}`,
        );
    },
    async stop() {
      stopChild(child);
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
  return balancer;
}

function stopChild(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}

// `show stat` answers CSV: the first column is the proxy, the second the server, `status` its state.
async function readStates(socket: string): Promise<Record<string, string>> {
  const csv = await new Promise<string>((resolve, reject) => {
    let text = '';
    const connection = net.connect(socket, () => connection.end('show stat\n'));
    connection.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    connection.on('end', () => resolve(text));
    connection.on('error', reject);
  });
  const [header = '', ...rows] = csv.trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const status = columns.indexOf('status');
  const states: Record<string, string> = {};
  for (const row of rows) {
    const cells = row.split(',');
    if (cells[0] === 'replicas' && cells[1] !== 'BACKEND')
      states[cells[1] ?? ''] = (cells[status] ?? '').split(' ')[0] ?? '';
  }
  return states;
}
