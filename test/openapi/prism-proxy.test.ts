import { expect, test } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { OpenApiDocument } from 'keel';
import type { ChildApp } from '../factories/child-app';
import { startPrism, violationsOf, PRISM_START_TIMEOUT_MS } from '../factories/prism';
import { sampleAuthorization, useSample } from '../factories/sample';
import { isPostgresServer, postgresUrl } from '../factories/test-databases';

// The compiled sample behind Stoplight Prism's validating proxy, every documented operation driven
// through it with good and bad requests: Prism finds no answer the document does not describe.
const sample = useSample(isPostgresServer() ? { scratchOn: postgresUrl() } : { embedded: true });

// Prism validates each answer against compiled schemas; on a loaded machine a few dozen calls take a while.
const CALLS_TIMEOUT_MS = 60_000;
const WRONG = { authorization: 'Bearer not-the-token' };
const lamp = { customer: 'Ada Lovelace', product: 'Brass lamp', quantity: 2 };

// `strict` answers a violation with Prism's own 500; a request with no credentials at all never
// passes it (Prism refuses it itself), so those go through `lenient`, which passes every answer on
// and lists what it found in `sl-violations`. `tampered` is strict, on a document made wrong on
// purpose: the negative control that shows a wrong answer is caught.
let strict: ChildApp;
let lenient: ChildApp;
let tampered: ChildApp;
let document: OpenApiDocument;
let dir: string;
// The operator's API token: the JSON API's writes need it.
let operatorToken: Record<string, string> = {};

beforeAll(async () => {
  operatorToken = await sampleAuthorization(sample().url);
  document = (await (await fetch(`${sample().url}/openapi.json`)).json()) as OpenApiDocument;
  dir = await mkdtemp(path.join(os.tmpdir(), 'keel-prism-'));
  const good = path.join(dir, 'openapi.json');
  const wrong = path.join(dir, 'tampered.json');
  await writeFile(good, JSON.stringify(document));
  await writeFile(wrong, JSON.stringify(tamper(document)));
  [strict, lenient, tampered] = await Promise.all([
    startPrism(good, sample().url, { errors: true }),
    startPrism(good, sample().url, { errors: false }),
    startPrism(wrong, sample().url, { errors: true }),
  ]);
}, PRISM_START_TIMEOUT_MS + 10_000);

afterAll(async () => {
  for (const prism of [strict, lenient, tampered]) prism?.child.kill('SIGTERM');
  await Promise.all([strict, lenient, tampered].map((prism) => prism?.exited));
  if (dir) await rm(dir, { recursive: true, force: true });
}, 30_000);

// The document with two lies in it: an order's quantity is at most 1, and a store never answers 401.
function tamper(original: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(original) as OpenApiDocument & {
    components: { schemas: Record<string, { properties: Record<string, object> }> };
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  const view = copy.components.schemas.OrderView;
  if (view) view.properties.quantity = { type: 'integer', minimum: 1, maximum: 1 };
  delete copy.paths['/api/orders']?.post?.responses['401'];
  return copy;
}

interface Call {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  readonly contentType?: string;
}

interface Sent {
  readonly status: number;
  readonly body: unknown;
  readonly responseViolations: string[];
}

const driven = new Set<string>();

// Sends `call` through `proxy` and says what came back; records which operation it drove.
async function through(proxy: ChildApp, call: Call): Promise<Sent> {
  const body =
    call.body === undefined
      ? undefined
      : typeof call.body === 'string'
        ? call.body
        : JSON.stringify(call.body);
  const res = await fetch(`${proxy.url}${call.path}`, {
    method: call.method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': call.contentType ?? 'application/json' }),
      ...call.headers,
    },
    body,
  });
  driven.add(
    `${call.method.toLowerCase()} ${call.path.replace(/\?.*$/, '').replace(/\/api\/orders\/[^/]+$/, '/api/orders/{id}')}`,
  );
  const text = await res.text();
  return {
    status: res.status,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
    responseViolations: violationsOf(res, 'response').map((v) => `${v.location.join('.')}: ${v.message}`),
  };
}

// What the sample answered through the strict proxy (or, without credentials, the lenient one):
// each answer is the sample's own, with the status expected, and no violation.
async function expectDocumented(call: Call, status: number): Promise<Sent> {
  const hasCredentials = call.headers?.authorization !== undefined;
  const isSecured = call.method !== 'GET';
  const answer = await through(isSecured && !hasCredentials ? lenient : strict, call);
  expect({
    call: `${call.method} ${call.path}`,
    status: answer.status,
    violations: answer.responseViolations,
  }).toEqual({
    call: `${call.method} ${call.path}`,
    status,
    violations: [],
  });
  // Prism's own problems say `type`; the sample's answers never do.
  if (status !== 204) expect(answer.body).not.toHaveProperty('type');
  return answer;
}

const write = (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = operatorToken,
) => ({
  method,
  path,
  body,
  headers,
});

test(
  'the health routes and the index, good and bad pages, answer as documented',
  async () => {
    await expectDocumented({ method: 'GET', path: '/health' }, 200);
    await expectDocumented({ method: 'GET', path: '/health/ready' }, 200);
    await expectDocumented({ method: 'GET', path: '/api/orders' }, 200);
    await expectDocumented({ method: 'GET', path: '/api/orders?page=2' }, 200);
    await expectDocumented({ method: 'GET', path: '/api/orders?page=0' }, 422);
    await expectDocumented({ method: 'GET', path: '/api/orders?page=many' }, 422);
  },
  CALLS_TIMEOUT_MS,
);

// Malformed JSON is left out: Prism 5.16 never answers a request whose JSON it cannot parse (it
// waits for the end of a body it has already read). The contract test checks the sample's 400 for it
// against the document.
test(
  'store: created, no token, a wrong token, an invalid body, another type, too large',
  async () => {
    const created = await expectDocumented(write('POST', '/api/orders', lamp), 201);
    expect(created.body).toMatchObject(lamp);
    await expectDocumented(write('POST', '/api/orders', lamp, {}), 401);
    await expectDocumented(write('POST', '/api/orders', lamp, WRONG), 401);
    await expectDocumented(write('POST', '/api/orders', { customer: '', quantity: 1001 }), 422);
    await expectDocumented(
      { ...write('POST', '/api/orders', 'customer=Ada'), contentType: 'text/plain' },
      415,
    );
    await expectDocumented(write('POST', '/api/orders', { ...lamp, note: 'x'.repeat(1_100_000) }), 413);
  },
  CALLS_TIMEOUT_MS,
);

test(
  'show, update (PUT and partial PATCH) and destroy, then the deleted order, answer as documented',
  async () => {
    const created = await expectDocumented(write('POST', '/api/orders', lamp), 201);
    const at = `/api/orders/${(created.body as { id: number }).id}`;

    await expectDocumented({ method: 'GET', path: at }, 200);
    await expectDocumented({ method: 'GET', path: '/api/orders/999999' }, 404);
    await expectDocumented({ method: 'GET', path: '/api/orders/not-an-id' }, 404);

    await expectDocumented(write('PUT', at, { ...lamp, quantity: 3 }), 200);
    await expectDocumented(write('PUT', at, { quantity: 4 }), 422);
    await expectDocumented(write('PUT', at, lamp, {}), 401);
    await expectDocumented(write('PUT', at, lamp, WRONG), 401);
    await expectDocumented(write('PUT', '/api/orders/999999', lamp), 404);

    const patched = await expectDocumented(write('PATCH', at, { quantity: 5 }), 200);
    expect(patched.body).toMatchObject({ ...lamp, quantity: 5 });
    await expectDocumented(write('PATCH', at, {}), 200);
    await expectDocumented(write('PATCH', at, { quantity: 0, customer: null }), 422);
    await expectDocumented(write('PATCH', at, { quantity: 6 }, {}), 401);
    await expectDocumented(write('PATCH', at, { quantity: 6 }, WRONG), 401);
    await expectDocumented(write('PATCH', '/api/orders/999999', { quantity: 6 }), 404);

    await expectDocumented(write('DELETE', at, undefined, {}), 401);
    await expectDocumented(write('DELETE', at, undefined, WRONG), 401);
    await expectDocumented(write('DELETE', at), 204);
    await expectDocumented({ method: 'GET', path: at }, 404);
    await expectDocumented(write('PATCH', at, { quantity: 6 }), 404);
    await expectDocumented(write('PUT', at, lamp), 404);
    await expectDocumented(write('DELETE', at), 404);
  },
  CALLS_TIMEOUT_MS,
);

test('every operation of the document was driven through the proxy', () => {
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method} ${path}`),
  );
  expect(documented.filter((operation) => !driven.has(operation))).toEqual([]);
  expect(documented).toHaveLength(8);
});

test("no answer of the sample was reported in Prism's log as a response violation", () => {
  const reported = [...strict.lines(), ...lenient.lines()]
    .map((line) => String(line.text ?? ''))
    .filter((text) => text.includes('Violation: response'));
  expect(reported).toEqual([]);
});

describe('the negative control: a document that is wrong on purpose', () => {
  test('an answer the document does not allow (quantity 2 where it says at most 1) is caught', async () => {
    const created = await through(strict, write('POST', '/api/orders', lamp));
    expect(created.status).toBe(201);
    const answer = await through(tampered, {
      method: 'GET',
      path: `/api/orders/${(created.body as { id: number }).id}`,
    });
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ type: expect.stringContaining('VIOLATIONS') as unknown as string });
    expect(JSON.stringify(answer.body)).toContain('quantity');
  });

  // Prism passes an error status it cannot match on, warning of it rather than replacing it.
  test('a status the document does not list (401 from a store that documents none) is caught', async () => {
    const answer = await through(tampered, write('POST', '/api/orders', lamp, WRONG));
    expect(answer.status).toBe(401);
    expect(answer.responseViolations).toEqual([
      expect.stringContaining('Unable to match the returned status code') as unknown as string,
    ]);
    expect(tampered.lines().some((line) => String(line.text ?? '').includes('Violation: response'))).toBe(
      true,
    );
  });
});
