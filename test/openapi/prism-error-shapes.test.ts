import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Application, ErrorsOption } from 'keel';
import type { ChildApp } from '../factories/child-app';
import { REAL_WORLD_SCHEMA, realWorld, serveErrorShapes } from '../factories/error-shape-app';
import { PRISM_START_TIMEOUT_MS, startPrism, violationsOf } from '../factories/prism';

// The error answers of an application with its own error shape, through Stoplight Prism's
// validating proxy: the document states each error's status, media type and schema, and Prism
// finds no answer it does not describe.
jest.setTimeout(PRISM_START_TIMEOUT_MS + 60_000);

const json = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
});

/**
 * Error answers the document states for their operation: each must pass Prism as described. Not
 * malformed JSON: Prism's proxy never forwards a JSON body it cannot parse (it waits, and the
 * request times out); test/http/error-shapes.test.ts checks that answer against the document's schema.
 */
const CONDITIONS: readonly { name: string; path: string; init?: RequestInit; status: number }[] = [
  { name: 'a body over the limit', path: '/things', init: json(`"${'x'.repeat(2_000_000)}"`), status: 413 },
  {
    name: 'an unsupported content type',
    path: '/things',
    init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
    status: 415,
  },
  { name: 'a failed validation', path: '/things', init: json('{"email":"not an email"}'), status: 422 },
  { name: 'no credentials', path: '/me', status: 401 },
  { name: 'a spent rate limit', path: '/things/limited', status: 429 },
  { name: 'the database away', path: '/things/stored', status: 503 },
];

describe.each([
  { shape: "'problem'", option: 'problem' as ErrorsOption, type: /^application\/problem\+json/ },
  {
    shape: 'a function (RealWorld’s shape)',
    option: { format: realWorld, schema: REAL_WORLD_SCHEMA } as ErrorsOption,
    type: /^application\/json/,
  },
])('with $shape', ({ option, type }) => {
  let app: Application | undefined;
  let prism: ChildApp | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    let url: string;
    ({ app, url } = await serveErrorShapes(option));
    dir = await mkdtemp(path.join(os.tmpdir(), 'keel-prism-errors-'));
    const documentFile = path.join(dir, 'openapi.json');
    await writeFile(documentFile, await (await fetch(`${url}/openapi.json`)).text());
    prism = await startPrism(documentFile, url, { errors: false });
  }, PRISM_START_TIMEOUT_MS + 20_000);

  afterAll(async () => {
    prism?.child.kill('SIGTERM');
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test.each(CONDITIONS)(
    '$name: $status, in the shape the document states',
    async ({ path: target, init, status }) => {
      // The rate limit's first request is allowed: the second is the one refused.
      if (status === 429) await fetch(`${(prism as ChildApp).url}${target}`);
      const res = await fetch(`${(prism as ChildApp).url}${target}`, init);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(type);
      expect(violationsOf(res, 'response')).toEqual([]);
      // And the check can fail: the body is the shape's, not keel's default.
      expect(await res.json()).not.toHaveProperty('error');
    },
  );
});
