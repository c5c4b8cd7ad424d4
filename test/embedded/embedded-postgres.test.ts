import { afterAll, expect, test } from '@jest/globals';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, runNode } from '../factories/cli';

// PGlite is an optional peer: a project without it gets a message naming what to install, not a
// module-resolution stack. keel's compiled database files are copied where no node_modules holds it.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'keel-no-pglite-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('embeddedPostgres() without PGlite installed rejects with E_EMBEDDED_NOT_INSTALLED, naming both packages', async () => {
  const keel = path.join(scratch, 'node_modules', 'keel');
  cpSync(path.join(REPO_ROOT, 'dist'), path.join(keel, 'dist'), { recursive: true });
  const script = path.join(scratch, 'start.js');
  writeFileSync(
    script,
    [
      `const { embeddedPostgres } = require(${JSON.stringify(path.join(keel, 'dist', 'embedded', 'embedded-postgres.js'))});`,
      `embeddedPostgres({ dataDir: 'data' }).then(() => console.log('started'), (error) => console.log(error.message));`,
    ].join('\n'),
  );
  const run = await runNode(script, [], { cwd: scratch });
  expect(run.stdout).toBe(
    'E_EMBEDDED_NOT_INSTALLED: embeddedPostgres() needs @electric-sql/pglite and @electric-sql/pglite-socket, which are not installed.\n' +
      'Fix: npm install --save-dev @electric-sql/pglite@0.5.14 @electric-sql/pglite-socket@0.2.17, or set DATABASE_URL to use a PostgreSQL server instead.\n',
  );
  expect(run.code).toBe(0);
});

test('the embedded database answers concurrent parameterised queries and transactions from a whole pool, each with its own result', async () => {
  const dataDir = path.join(scratch, 'concurrent');
  const script = path.join(scratch, 'concurrent.js');
  writeFileSync(
    script,
    [
      `const { embeddedPostgres } = require(${JSON.stringify(path.join(REPO_ROOT, 'dist', 'embedded', 'embedded-postgres.js'))});`,
      `const { Pool } = require(${JSON.stringify(require.resolve('pg'))});`,
      'async function main() {',
      `  const database = await embeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, poolSize: 10 });`,
      '  const pool = new Pool({ connectionString: database.url, max: 10 });',
      "  const select = (client, n) => client.query('SELECT $1::int AS n, $2::text AS label', [n, `q${n}`]);",
      '  // Half the queries run alone, half inside a transaction of their own, all at once.',
      '  const inTransaction = async (n) => {',
      '    const client = await pool.connect();',
      "    try { await client.query('BEGIN'); const result = await select(client, n); await client.query('COMMIT'); return result; }",
      '    finally { client.release(); }',
      '  };',
      '  const outcomes = await Promise.all(Array.from({ length: 400 }, (_, n) =>',
      '    (n % 2 ? inTransaction(n) : select(pool, n)).then(',
      "      ({ rows }) => (rows[0].n === n && rows[0].label === `q${n}` ? 'right' : 'wrong'),",
      '      (error) => error.message)));',
      '  const tally = {};',
      '  for (const outcome of outcomes) tally[outcome] = (tally[outcome] ?? 0) + 1;',
      '  console.log(JSON.stringify(tally));',
      '  await pool.end();',
      '  await database.stop();',
      '}',
      'main().catch((error) => { console.log(String(error)); process.exitCode = 1; });',
    ].join('\n'),
  );
  const run = await runNode(script, [], { cwd: scratch });

  expect(JSON.parse(run.stdout) as unknown).toEqual({ right: 400 });
  expect(run.code).toBe(0);
}, 60_000);
