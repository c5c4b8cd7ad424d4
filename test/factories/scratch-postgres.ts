import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { closedPort } from './test-databases';

const run = promisify(execFile);

const POSTGRES_LIB = '/usr/lib/postgresql';

/** A PostgreSQL server of its own, started by {@link useScratchPostgres}, that checks passwords (scram-sha-256). */
export interface ScratchPostgres {
  readonly user: string;
  readonly password: string;
  /** A URL for the `postgres` database with `password` (the right one unless given). */
  url(password?: string): string;
  /** How long initdb and the start took, in milliseconds. */
  readonly startupMs: { readonly initdb: number; readonly start: number };
}

/** The newest `/usr/lib/postgresql/<version>/bin` that has initdb, or undefined when none is installed. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(POSTGRES_LIB)) return undefined;
  return readdirSync(POSTGRES_LIB)
    .filter((version) => existsSync(path.join(POSTGRES_LIB, version, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((version) => path.join(POSTGRES_LIB, version, 'bin'))[0];
}

/**
 * Registers a `beforeAll` that creates and starts a scratch PostgreSQL server with password
 * authentication in a fresh temporary directory, and an `afterAll` that stops it and removes the
 * directory; returns a getter for the running server.
 */
export function useScratchPostgres(binDir: string): () => ScratchPostgres {
  let server: ScratchPostgres | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'keel-scratch-pg-'));
    server = await startScratchPostgres(binDir, dir);
  }, 60_000);

  // Runs even when beforeAll failed half-way: whatever was started in `dir` is stopped.
  afterAll(async () => {
    if (dir) await stopScratchPostgres(binDir, dir);
  }, 30_000);

  return () => {
    if (!server) throw new Error('the scratch PostgreSQL server did not start: see the beforeAll error');
    return server;
  };
}

async function startScratchPostgres(binDir: string, dir: string): Promise<ScratchPostgres> {
  const user = 'keel';
  const password = randomBytes(12).toString('hex');
  const pwfile = path.join(dir, 'pwfile');
  await writeFile(pwfile, `${password}\n`);
  // initdb refuses to run as root, and the server must own its data directory.
  if (process.getuid?.() === 0) await run('chown', ['-R', 'postgres:', dir]);

  const initdbStartedAt = performance.now();
  await asServerUser(path.join(binDir, 'initdb'), [
    `--pgdata=${path.join(dir, 'data')}`,
    `--username=${user}`,
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '--encoding=UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const initdb = performance.now() - initdbStartedAt;

  const port = await closedPort();
  const startedAt = performance.now();
  await asServerUser(path.join(binDir, 'pg_ctl'), [
    'start',
    '--wait',
    '--timeout=30',
    `--pgdata=${path.join(dir, 'data')}`,
    `--log=${path.join(dir, 'server.log')}`,
    `--options=-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`,
  ]).catch(async (error: unknown) => {
    const log = await readFile(path.join(dir, 'server.log'), 'utf8').catch(() => '');
    throw new Error(`pg_ctl start failed: ${String(error)}\n${log}`);
  });
  const start = performance.now() - startedAt;

  return {
    user,
    password,
    url: (given = password) => `postgres://${user}:${encodeURIComponent(given)}@127.0.0.1:${port}/postgres`,
    startupMs: { initdb, start },
  };
}

async function stopScratchPostgres(binDir: string, dir: string): Promise<void> {
  const data = path.join(dir, 'data');
  try {
    if (existsSync(path.join(data, 'postmaster.pid'))) {
      await asServerUser(path.join(binDir, 'pg_ctl'), [
        'stop',
        '--mode=immediate',
        '--wait',
        `--pgdata=${data}`,
      ]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function asServerUser(program: string, args: readonly string[]): Promise<unknown> {
  const isRoot = process.getuid?.() === 0;
  return isRoot
    ? run('runuser', ['-u', 'postgres', '--', program, ...args], { timeout: 60_000 })
    : run(program, [...args], { timeout: 60_000 });
}
