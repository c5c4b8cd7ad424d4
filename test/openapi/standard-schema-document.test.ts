import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { z } from 'zod';
import { Body, Controller, OpenApiModule, Param, Post, Query, Get, Module, type OpenApiDocument } from 'keel';
import { useServedApp } from '../factories/app';
import { runNode } from '../factories/cli';
import type { ChildApp } from '../factories/child-app';
import { validateOpenApi, VALIDATOR_TIMEOUT_MS } from '../factories/openapi';
import { order } from '../factories/order-bodies';
import { zodOrder } from '../factories/order-schemas';
import { PRISM_START_TIMEOUT_MS, startPrism, violationsOf } from '../factories/prism';
import { undocumentedSchemas } from '../../src/openapi/schema-documents';
import { OPENAPI_DOCUMENT } from '../../src/openapi/openapi-token';

const listing = z.object({
  page: z.coerce.number().int().min(1).default(1),
  q: z.string().max(40).optional(),
});

@Controller('/orders')
class OrderController {
  @Post() place(@Body(zodOrder) input: z.output<typeof zodOrder>) {
    return { item: input.item };
  }
  @Get() list(@Query(listing) query: z.output<typeof listing>) {
    return { page: query.page };
  }
  @Get(':id') show(@Param('id', z.coerce.number().int().positive()) id: number) {
    return { id };
  }
  @Post('notes') note(@Body(v.object({ text: v.string() })) input: { text: string }) {
    return input;
  }
}

@Module({
  imports: [OpenApiModule.forRoot({ title: 'Orders', version: '1.0.0' })],
  controllers: [OrderController],
})
class AppModule {}

const served = useServedApp(AppModule);
let document: OpenApiDocument;
type Operation = {
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  responses: Record<string, unknown>;
};
const operation = (p: string, method: string): Operation =>
  (document.paths[p] as Record<string, Operation>)[method] as Operation;

beforeAll(async () => {
  document = (await (await fetch(`${served().url}/openapi.json`)).json()) as OpenApiDocument;
});

test("a zod body is documented through zod's own JSON Schema, its constraints stated", () => {
  const place = operation('/orders', 'post');
  const schema = place.requestBody?.content['application/json']?.schema as {
    properties: Record<string, Record<string, unknown>>;
    required: string[];
  };
  expect(schema.required).toEqual(expect.arrayContaining(['item', 'quantity', 'email', 'confirm']));
  expect(schema.properties.item).toMatchObject({ type: 'string', minLength: 1, maxLength: 80 });
  expect(schema.properties.quantity).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
  expect(schema.properties.email).toMatchObject({ type: 'string', format: 'email' });
  expect(schema.properties.lines).toMatchObject({ type: 'array', minItems: 1, maxItems: 3 });
  expect(schema).not.toHaveProperty('$schema');
  expect(Object.keys(place.responses)).toEqual(expect.arrayContaining(['201', '400', '415', '422']));
});

test('a query schema becomes query parameters with their defaults, a parameter schema its type', () => {
  expect(operation('/orders', 'get').parameters).toEqual([
    {
      name: 'page',
      in: 'query',
      required: false,
      schema: expect.objectContaining({ type: 'integer', default: 1 }),
    },
    { name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 40 } },
  ]);
  expect(operation('/orders/{id}', 'get').parameters?.[0]).toMatchObject({
    name: 'id',
    in: 'path',
    schema: { type: 'integer', exclusiveMinimum: 0 },
  });
});

test('a schema that states no JSON Schema is documented as {} and listed', async () => {
  expect(operation('/orders/notes', 'post').requestBody?.content['application/json']?.schema).toEqual({});
  expect(undocumentedSchemas(served().app.get(OPENAPI_DOCUMENT).document())).toEqual([
    'POST /orders/notes body: a valibot schema without a JSON Schema',
  ]);
});

test(
  'the document is valid OpenAPI 3.1',
  async () => {
    expect(await validateOpenApi(document)).toEqual({ valid: true, errors: null });
  },
  VALIDATOR_TIMEOUT_MS,
);

describe('framework openapi --check', () => {
  const APP = path.join('test', 'fixtures', 'apps', 'schema-docs.mjs');

  test('fails listing each schema documented as {}', async () => {
    const run = await runNode(APP, ['openapi', '--check']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_UNDOCUMENTED_SCHEMAS');
    expect(run.stderr).toContain('POST /notes/add body: a valibot schema without a JSON Schema');
    expect(run.stderr).not.toContain('/notes/rate');
  });

  test('passes when every schema states itself', async () => {
    const run = await runNode(APP, ['openapi', '--check'], { env: { WRAPPED: '1' } });
    expect(run).toMatchObject({ code: 0, stdout: 'every schema is documented\n' });
  });
});

describe('behind Prism', () => {
  let prism: ChildApp;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'keel-schema-prism-'));
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    prism = await startPrism(file, served().url, { errors: false });
  }, PRISM_START_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    prism?.child.kill('SIGTERM');
    await prism?.exited;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test.each([
    ['a valid order', 'POST', '/orders', order, 201],
    ['an invalid order', 'POST', '/orders', { ...order, quantity: 0, lines: [{ sku: 'x', count: 0 }] }, 422],
    ['a listing', 'GET', '/orders?page=2', undefined, 200],
    ['a bad listing', 'GET', '/orders?page=0', undefined, 422],
    ['an order by id', 'GET', '/orders/7', undefined, 200],
    ['an id that is no number', 'GET', '/orders/x', undefined, 422],
  ])(
    '%s: no violation',
    async (_name, method, url, body, status) => {
      const res = await fetch(`${prism.url}${url}`, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status).toBe(status);
      expect(violationsOf(res, 'response')).toEqual([]);
    },
    30_000,
  );
});
