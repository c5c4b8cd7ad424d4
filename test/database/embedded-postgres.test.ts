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
      `const { embeddedPostgres } = require(${JSON.stringify(path.join(keel, 'dist', 'database', 'embedded-postgres.js'))});`,
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
