import { expect, test } from '@jest/globals';
import type { JsonSchema, OpenApiDocument } from 'keel';
import { exampleOf, schemaValidator, validateOpenApi, VALIDATOR_TIMEOUT_MS } from '../factories/openapi';
import { sampleAuthorization, useSample } from '../factories/sample';
import { isPostgresServer, postgresUrl } from '../factories/test-databases';

// The sample against its own OpenAPI document, over real HTTP. Its JSON API's writes require an
// API token of its operator: every request carries one.
const sample = useSample(isPostgresServer() ? { scratchOn: postgresUrl() } : { embedded: true });

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly parameters?: readonly { name: string; in: string; schema: JsonSchema }[];
  readonly requestBody?: { content: Record<string, { schema: JsonSchema }> };
  readonly responses: Record<string, { content?: Record<string, { schema: JsonSchema }>; headers?: object }>;
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

let document: OpenApiDocument;
let schemaCheck: ReturnType<typeof schemaValidator>;

beforeAll(async () => {
  const res = await fetch(`${sample().url}/openapi.json`);
  expect(res.status).toBe(200);
  document = (await res.json()) as OpenApiDocument;
  schemaCheck = schemaValidator(document);
});

// DELETE last: it removes the order the other operations read and change.
function operations(): Operation[] {
  const all = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(
      ([method, operation]) => ({ ...(operation as object), method, path }) as Operation,
    ),
  );
  return [...all.filter((op) => op.method !== 'delete'), ...all.filter((op) => op.method === 'delete')];
}

async function send(op: Operation, pathValues: Record<string, string>, body?: string): Promise<Answer> {
  const path = op.path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
    encodeURIComponent(pathValues[name] ?? ''),
  );
  const query = new URLSearchParams();
  for (const param of op.parameters ?? []) {
    if (param.in === 'query') query.set(param.name, String(exampleOf(param.schema, document)));
  }
  const res = await fetch(`${sample().url}${path}${query.size > 0 ? `?${query}` : ''}`, {
    method: op.method.toUpperCase(),
    headers: {
      ...(await sampleAuthorization(sample().url)),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

function validBody(op: Operation): string | undefined {
  const schema = op.requestBody?.content['application/json']?.schema;
  return schema && JSON.stringify(exampleOf(schema, document));
}

// What is wrong with `answer` as the document describes `op`'s answers; empty when nothing is.
function mismatches(op: Operation, answer: Answer): string[] {
  const label = `${op.method.toUpperCase()} ${op.path} → ${answer.status}`;
  const documented = op.responses[String(answer.status)];
  if (!documented) return [`${label}: not a documented status (${Object.keys(op.responses).join(', ')})`];
  const problems: string[] = [];
  if (documented.headers && 'Location' in documented.headers && !answer.headers.get('location')) {
    problems.push(`${label}: no Location header`);
  }
  const schema = documented.content?.['application/json']?.schema;
  if (schema) {
    if (!answer.headers.get('content-type')?.startsWith('application/json'))
      problems.push(`${label}: not JSON`);
    const validate = schemaCheck(schema);
    if (!validate(JSON.parse(answer.text))) problems.push(`${label}: ${JSON.stringify(validate.errors)}`);
  } else if (answer.status === 204 && answer.text !== '') {
    problems.push(`${label}: a body where none is documented`);
  }
  return problems;
}

async function createdOrderId(): Promise<string> {
  const store = operations().find((op) => op.path === '/api/orders' && op.method === 'post');
  if (!store) throw new Error('the document has no POST /api/orders');
  const answer = await send(store, {}, validBody(store));
  expect(answer.status).toBe(201);
  return String((JSON.parse(answer.text) as { id: number }).id);
}

test(
  "the sample's document passes the standard OpenAPI 3.1 validator",
  async () => {
    expect(await validateOpenApi(document)).toEqual({ valid: true, errors: null });
  },
  VALIDATOR_TIMEOUT_MS,
);

test('it documents the JSON API and the health endpoints, and the welcome page links /docs', async () => {
  expect(Object.keys(document.paths)).toEqual([
    '/health',
    '/health/ready',
    '/api/orders',
    '/api/orders/{id}',
  ]);
  expect(document.components.schemas).toHaveProperty('OrderInput');
  expect(document.components.schemas).toHaveProperty('OrderPageView');
  const welcome = await (await fetch(`${sample().url}/`)).text();
  expect(welcome).toContain('<a href="/docs">');
  expect((await fetch(`${sample().url}/docs`)).status).toBe(200);
});

test("the sample's document states its rules: 1 to 80 characters, 1 to 1000, a bearer token on the writes, reads open, PATCH requiring nothing", () => {
  const schemas = document.components.schemas as Record<string, { properties: Record<string, JsonSchema> }>;
  expect(schemas.OrderInput?.properties).toEqual({
    customer: expect.objectContaining({ type: 'string', minLength: 1, maxLength: 80 }) as JsonSchema,
    product: expect.objectContaining({ type: 'string', minLength: 1, maxLength: 80 }) as JsonSchema,
    quantity: { type: 'integer', minimum: 1, maximum: 1000 },
  });
  expect(document.components.securitySchemes).toEqual({
    token: expect.objectContaining({ type: 'http', scheme: 'bearer' }) as JsonSchema,
  });
  const byMethod = Object.fromEntries(operations().map((op) => [`${op.method} ${op.path}`, op]));
  for (const write of [
    'post /api/orders',
    'put /api/orders/{id}',
    'patch /api/orders/{id}',
    'delete /api/orders/{id}',
  ]) {
    expect(byMethod[write]).toMatchObject({ security: [{ token: [] }] });
    expect(byMethod[write]?.responses).toHaveProperty('401');
  }
  for (const read of ['get /api/orders', 'get /api/orders/{id}', 'get /health', 'get /health/ready']) {
    expect(byMethod[read]).not.toHaveProperty('security');
    expect(byMethod[read]?.responses).not.toHaveProperty('401');
  }
  expect(byMethod['patch /api/orders/{id}']?.requestBody).toMatchObject({
    required: false,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderChanges' } } },
  });
  expect(document.components.schemas.OrderChanges).not.toHaveProperty('required');
  expect(byMethod['put /api/orders/{id}']?.requestBody).toMatchObject({
    content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderInput' } } },
  });
});

test('every operation, sent a request built from its schema, answers a documented status and body', async () => {
  const id = await createdOrderId();
  const problems: string[] = [];
  const statuses: string[] = [];
  for (const op of operations()) {
    const answer = await send(op, { id }, validBody(op));
    statuses.push(`${op.method.toUpperCase()} ${op.path} ${answer.status}`);
    problems.push(...mismatches(op, answer));
  }
  expect(problems).toEqual([]);
  expect(statuses).toEqual([
    'GET /health 200',
    'GET /health/ready 200',
    'GET /api/orders 200',
    'POST /api/orders 201',
    'GET /api/orders/{id} 200',
    'PUT /api/orders/{id} 200',
    'PATCH /api/orders/{id} 200',
    'DELETE /api/orders/{id} 204',
  ]);
});

test('with the path parameter its schema gives (no such order), each operation answers as documented', async () => {
  const problems: string[] = [];
  const statuses: number[] = [];
  for (const op of operations().filter((candidate) => candidate.path.includes('{id}'))) {
    const id = op.parameters?.find((param) => param.name === 'id');
    const answer = await send(op, { id: String(exampleOf(id?.schema ?? {}, document)) }, validBody(op));
    statuses.push(answer.status);
    problems.push(...mismatches(op, answer));
  }
  expect(problems).toEqual([]);
  expect(statuses).toEqual([404, 404, 404, 404]);
});

test('every operation with a body answers an invalid one with the documented 422, malformed JSON with the 400', async () => {
  const id = await createdOrderId();
  const problems: string[] = [];
  const statuses: string[] = [];
  for (const op of operations().filter((candidate) => candidate.requestBody)) {
    for (const body of [JSON.stringify({ customer: '', quantity: 'many' }), '{"customer":']) {
      const answer = await send(op, { id }, body);
      statuses.push(`${op.method.toUpperCase()} ${op.path} ${answer.status}`);
      problems.push(...mismatches(op, answer));
    }
  }
  expect(problems).toEqual([]);
  expect(statuses).toEqual([
    'POST /api/orders 422',
    'POST /api/orders 400',
    'PUT /api/orders/{id} 422',
    'PUT /api/orders/{id} 400',
    'PATCH /api/orders/{id} 422',
    'PATCH /api/orders/{id} 400',
  ]);
});
