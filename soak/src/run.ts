import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { HTTP_BAD_INPUTS, RAW_BAD_INPUTS, type HttpBadInput } from './bad-inputs';
import { authorised, openCredentials, type Credentials } from './credentials';
import { mutatedRequest } from './mutation';
import { sampleProcess, type ProcessSample } from './process-stats';
import { sendRaw } from './raw-request';

// Fuzzes and soaks the compiled sample on the loopback, bounded in time and in requests, and prints
// what it tried and how the server held up: statuses, 5xx, resets, hangs, memory and descriptors.

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    requests: { type: 'string', default: '1000000' },
    connections: { type: 'string', default: '16' },
  },
});
const SECONDS = Number(args.seconds);
const MAX_REQUESTS = Number(args.requests);
const CONNECTIONS = Number(args.connections);
const RAW_TIMEOUT_MS = 3000;
const SAMPLE_MAIN = path.join(__dirname, '..', '..', 'sample', 'dist', 'main.js');
// The operator every client logs in as, for its page session and its API token.
const OPERATOR = { email: 'soak@example.test', password: randomBytes(16).toString('hex') };

const VALID: readonly HttpBadInput[] = [
  { kind: 'GET /health', method: 'GET', path: '/health' },
  { kind: 'GET /health/ready', method: 'GET', path: '/health/ready' },
  { kind: 'GET /api/orders/1', method: 'GET', path: '/api/orders/1' },
  { kind: 'GET /api/orders', method: 'GET', path: '/api/orders?page=1' },
  { kind: 'GET /orders', method: 'GET', path: '/orders' },
];
// Writes as real clients send them (with the bearer token, or the session's CSRF token): the
// JSON API's create and update, and the HTML form's create.
const WRITES: readonly HttpBadInput[] = [
  {
    kind: 'POST /api/orders',
    method: 'POST',
    path: '/api/orders',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ customer: 'Soak', product: 'Lamp', quantity: 1 }),
  },
  {
    kind: 'PUT /api/orders/1',
    method: 'PUT',
    path: '/api/orders/1',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ customer: 'Soak', product: 'Desk', quantity: 2 }),
  },
  {
    kind: 'POST /orders (form)',
    method: 'POST',
    path: '/orders',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'customer=Soak&product=Chair&quantity=3',
  },
];

interface Tally {
  requests: number;
  byStatus: Map<string, number>;
  serverErrors: Map<string, number>;
  resets: number;
  rawResets: number;
  hung: Map<string, number>;
  kindsTried: Set<string>;
  serverLog: Map<string, number>;
  serverWarnings: Map<string, number>;
  writes: Map<string, number>;
}

const tally: Tally = {
  requests: 0,
  byStatus: new Map(),
  serverErrors: new Map(),
  resets: 0,
  rawResets: 0,
  hung: new Map(),
  kindsTried: new Set(),
  serverLog: new Map(),
  serverWarnings: new Map(),
  writes: new Map(),
};

const WRITE_KINDS = new Set(WRITES.map((write) => write.kind));

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function record(kind: string, status: number | undefined): void {
  tally.requests++;
  count(tally.byStatus, status === undefined ? 'none' : String(status));
  if (status !== undefined && status >= 500) count(tally.serverErrors, `${kind} → ${status}`);
  if (WRITE_KINDS.has(kind)) count(tally.writes, `${kind} → ${status ?? 'none'}`);
}

function send(port: number, agent: http.Agent, input: HttpBadInput): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, agent, method: input.method, path: input.path, headers: input.headers },
      (res) => {
        res.resume();
        res.on('end', () => {
          record(input.kind, res.statusCode);
          resolve();
        });
        res.on('error', () => resolve());
        res.on('aborted', () => resolve());
      },
    );
    // A request the server neither answers nor closes is a finding, not a reason to stall.
    req.setTimeout(RAW_TIMEOUT_MS, () => {
      count(tally.hung, input.kind);
      req.destroy(new Error('no answer'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      record(input.kind, undefined);
      if (error.code === 'ECONNRESET' || error.message === 'socket hang up') tally.resets++;
      resolve();
    });
    req.end(input.body);
  });
}

async function sendRawKind(port: number, kind: string, bytes: Buffer): Promise<void> {
  const outcome = await sendRaw(port, bytes, RAW_TIMEOUT_MS);
  record(kind, outcome.status);
  if (outcome.wasReset) tally.rawResets++;
  if (outcome.hung) count(tally.hung, kind);
}

function pick<T>(list: readonly T[]): T {
  return list[Math.floor(Math.random() * list.length)] as T;
}

/**
 * One client: valid reads mostly, valid writes and bad input among them, until the time or the
 * requests run out. Writes and bad input carry the client's credentials, so they reach the database.
 */
async function client(port: number, agent: http.Agent, deadline: number): Promise<void> {
  const credentials: Credentials = await openCredentials(port, OPERATOR);
  while (performance.now() < deadline && tally.requests < MAX_REQUESTS) {
    const roll = Math.random();
    if (roll < 0.6) await send(port, agent, pick(VALID));
    else if (roll < 0.7) await send(port, agent, authorised(pick(WRITES), credentials));
    else if (roll < 0.97) {
      const input = pick(HTTP_BAD_INPUTS);
      tally.kindsTried.add(input.kind);
      await send(port, agent, authorised(input, credentials));
    } else if (roll < 0.985) {
      const input = pick(RAW_BAD_INPUTS);
      tally.kindsTried.add(input.kind);
      await sendRawKind(port, input.kind, input.bytes);
    } else {
      tally.kindsTried.add('mutated POST');
      await sendRawKind(port, 'mutated POST', mutatedRequest(Math.random));
    }
  }
}

// What the server logged as an error: its message and the error's, without the request's details.
function errorOf(line: string): string {
  const entry = JSON.parse(line) as { msg?: string; reason?: string; err?: { message?: string } };
  return `${entry.msg ?? ''}: ${(entry.err?.message ?? entry.reason ?? '').slice(0, 120)}`;
}

function startSample(dataDir: string): Promise<{ child: ChildProcess; port: number }> {
  // The load comes from one address: the sample's limit on API writes per client is lifted.
  const writes = { API_WRITES_PER_MINUTE: String(Number.MAX_SAFE_INTEGER) };
  const env = {
    ...process.env,
    PORT: '0',
    METRICS_PORT: '0',
    DATA_DIR: dataDir,
    SHUTDOWN_DELAY_MS: '0',
    ADMIN_EMAIL: OPERATOR.email,
    ADMIN_PASSWORD: OPERATOR.password,
    LOGINS_PER_MINUTE: String(Number.MAX_SAFE_INTEGER),
    ...writes,
  };
  const child = spawn(process.execPath, [SAMPLE_MAIN], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    let port: number | undefined;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (output + chunk).split('\n');
      output = lines.pop() ?? '';
      for (const line of lines) {
        const found = /"url":"http:\/\/[^"]*:(\d+)","msg":"listening"/.exec(line)?.[1];
        if (found && port === undefined) {
          port = Number(found);
          resolve({ child, port });
        }
        if (line.includes('"level":50')) count(tally.serverLog, errorOf(line));
        // A warning is a symptom too: a job queue falling behind, a store failing over.
        if (line.includes('"level":40')) count(tally.serverWarnings, errorOf(line));
      }
    });
    child.once('exit', (code) => reject(new Error(`the sample exited (${code}) before listening`)));
  });
}

async function waitUntilReady(port: number): Promise<void> {
  for (const deadline = performance.now() + 60_000; performance.now() < deadline;) {
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the sample was not ready within 60 s');
}

function describe(label: string, sample: ProcessSample): string {
  return `${label}: RSS ${sample.rssMb} MB, ${sample.fds} fds`;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'keel-soak-'));
  const { child, port } = await startSample(dataDir);
  try {
    await waitUntilReady(port);
    const pid = child.pid as number;
    // Warm: the first figures after some traffic, so that the JIT and the pools have settled.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const startedAt = performance.now();
    const deadline = startedAt + SECONDS * 1000;
    const samples: ProcessSample[] = [sampleProcess(pid)];
    const sampler = setInterval(() => samples.push(sampleProcess(pid)), 1000);
    await Promise.all(Array.from({ length: CONNECTIONS }, () => client(port, agent, deadline)));
    clearInterval(sampler);
    agent.destroy();
    const after = sampleProcess(pid);
    const seconds = (performance.now() - startedAt) / 1000;
    report(seconds, samples, after);
    process.exitCode = tally.serverErrors.size > 0 || tally.resets > 0 ? 1 : 0;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

function report(seconds: number, samples: readonly ProcessSample[], after: ProcessSample): void {
  const first = samples[1] ?? (samples[0] as ProcessSample);
  // Past the first quarter the JIT, the heap and the pools have settled: growth from there is what a leak shows.
  const warm = samples[Math.floor(samples.length / 4)] ?? first;
  const maxRss = Math.max(...samples.map((sample) => sample.rssMb), after.rssMb);
  const fds = samples.map((sample) => sample.fds);
  const lines = [
    `requests: ${tally.requests} in ${seconds.toFixed(1)} s (${Math.round(tally.requests / seconds)}/s), ${CONNECTIONS} connections, loopback only`,
    `bad-input kinds tried: ${tally.kindsTried.size} of ${HTTP_BAD_INPUTS.length + RAW_BAD_INPUTS.length + 1}`,
    `statuses: ${[...tally.byStatus]
      .sort()
      .map(([status, n]) => `${status}×${n}`)
      .join(', ')}`,
    `valid writes: ${[...tally.writes]
      .sort()
      .map(([k, n]) => `${k}×${n}`)
      .join(', ')}`,
    `5xx: ${[...tally.serverErrors.values()].reduce((a, b) => a + b, 0)}${tally.serverErrors.size ? ` (${[...tally.serverErrors].map(([k, n]) => `${k}×${n}`).join(', ')})` : ''}`,
    `resets on keep-alive requests: ${tally.resets}; connections reset after raw bad input: ${tally.rawResets}`,
    `inputs neither answered nor closed within ${RAW_TIMEOUT_MS} ms: ${[...tally.hung].map(([k, n]) => `${k}×${n}`).join(', ') || 'none'}`,
    `server errors logged: ${[...tally.serverLog].map(([k, n]) => `${k} ×${n}`).join('; ') || 'none'}`,
    `server warnings logged: ${[...tally.serverWarnings].map(([k, n]) => `${k} ×${n}`).join('; ') || 'none'}`,
    describe('server at the start', samples[0] as ProcessSample),
    describe('after the first second', first),
    describe('after a quarter of the run', warm),
    describe('at the end', after),
    `RSS change from a quarter of the run to the end: ${(((after.rssMb - warm.rssMb) / warm.rssMb) * 100).toFixed(1)} %, peak ${maxRss} MB; fds min ${Math.min(...fds)}, max ${Math.max(...fds)}`,
  ];
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(`soak failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
