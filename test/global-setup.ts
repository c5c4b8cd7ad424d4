import { existsSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  DEFAULT_MARIADB_URL,
  DEFAULT_POSTGRES_URL,
  TestDatabaseEnv,
  closedPort,
  isReachable,
} from './factories/test-databases';

/**
 * Compiles `src/` to `dist/` and the sample to `sample/dist/` once before the suite (tests that start
 * the framework in a child process load it from there, and must never run against a stale build),
 * then picks the databases:
 * `DATABASE_URL` when given, else the PostgreSQL server on this machine, else an embedded PGlite
 * server started here, so the suite passes on a machine with no database server at all.
 */
export default async function globalSetup(): Promise<void> {
  const root = path.join(__dirname, '..');
  // The sample application runs from its own build too (it imports keel's dist/ by name). A file
  // left from a source since moved or removed would still be found (dist/errors.js shadows
  // dist/errors/index.js), and tests would pass against it: such files are removed after each build
  // (not the whole directory before it, which a second run of the suite may be reading).
  for (const [project, outDir, sourceDir] of [
    ['tsconfig.build.json', 'dist', 'src'],
    ['sample/tsconfig.json', 'sample/dist', 'sample/src'],
  ] as const) {
    execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', project], {
      cwd: root,
      stdio: 'inherit',
      timeout: 120_000,
    });
    removeOrphanedOutputs(path.join(root, outDir), path.join(root, sourceDir));
  }
  await choosePostgres();
  const mariadb = process.env.MARIADB_URL ?? DEFAULT_MARIADB_URL;
  if (await isReachable(mariadb)) process.env[TestDatabaseEnv.mariadbUrl] = mariadb;
}

// Every compiled file whose source is gone: `x.js`, `x.js.map`, `x.d.ts`, `x.d.ts.map` without `x.ts`.
function removeOrphanedOutputs(outDir: string, sourceDir: string): void {
  for (const entry of readdirSync(outDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const output = path.join(entry.parentPath, entry.name);
    const stem = path.relative(outDir, output).replace(/(\.d)?\.ts\.map$|\.d\.ts$|\.js(\.map)?$/, '');
    if (stem.endsWith('.map') || stem === path.relative(outDir, output)) continue;
    if (!existsSync(path.join(sourceDir, `${stem}.ts`))) rmSync(output);
  }
}

async function choosePostgres(): Promise<void> {
  // KEEL_TEST_DATABASE=embedded runs the suite as a machine without PostgreSQL would.
  if (process.env[TestDatabaseEnv.postgresKind] === 'embedded') return startEmbeddedPostgres();
  const given = process.env.DATABASE_URL;
  if (given) {
    process.env[TestDatabaseEnv.postgresKind] = 'server';
    return;
  }
  if (await isReachable(DEFAULT_POSTGRES_URL)) {
    process.env[TestDatabaseEnv.postgresUrl] = DEFAULT_POSTGRES_URL;
    process.env[TestDatabaseEnv.postgresKind] = 'server';
    return;
  }
  await startEmbeddedPostgres();
}

async function startEmbeddedPostgres(): Promise<void> {
  // PGlite crashes inside Jest's VM sandbox, so it runs here, in the plain Node process that
  // outlives every test file; the global teardown stops it.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const port = await closedPort();
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 100 });
  await server.start();
  (globalThis as EmbeddedPostgres).keelEmbeddedPostgres = server;
  process.env[TestDatabaseEnv.postgresUrl] = `postgres://postgres@127.0.0.1:${port}/postgres`;
  process.env[TestDatabaseEnv.postgresKind] = 'embedded';
}

/** Where the global setup leaves the embedded server for the teardown (Jest shares only globals between them). */
export interface EmbeddedPostgres {
  keelEmbeddedPostgres?: { stop(): Promise<void> };
}
