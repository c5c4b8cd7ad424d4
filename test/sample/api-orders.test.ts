import { beforeEach, expect, test } from '@jest/globals';
import { SAMPLE_OPERATOR } from '../factories/sample';
import { useSampleApp } from '../factories/sample-app';

// The sample's JSON resource, in-process through app.inject: each test on a database of its own,
// with no orders in it.
const sampleFetch = useSampleApp();

const lamp = { customer: 'Ada Lovelace', product: 'Brass lamp', quantity: 2 };

// The operator's API token, issued on each test's own database.
let operatorToken: Record<string, string> = {};
beforeEach(async () => {
  const res = await sampleFetch('/api/tokens', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SAMPLE_OPERATOR),
  });
  expect(res.status).toBe(201);
  operatorToken = { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
});

function send(
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
  authorization: Record<string, string> = operatorToken,
) {
  return sampleFetch(path, {
    method,
    headers: { ...authorization, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function created(input = lamp): Promise<{ id: number }> {
  const res = await send('POST', '/api/orders', input);
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number };
}

test('POST stores a valid order: 201, the order with its id, and a Location to read it back', async () => {
  const res = await send('POST', '/api/orders', lamp);
  expect(res.status).toBe(201);
  const order = (await res.json()) as Record<string, unknown>;
  expect(order).toEqual({ id: expect.any(Number), ...lamp, createdAt: expect.any(String) });
  expect(res.headers.get('location')).toBe(`/api/orders/${order.id as number}`);

  const read = await send('GET', `/api/orders/${order.id as number}`);
  expect(read.status).toBe(200);
  expect(await read.json()).toEqual(order);
});

test('GET lists the orders newest first, a page at a time', async () => {
  const ids: number[] = [];
  for (let i = 0; i < 11; i++) ids.push((await created({ ...lamp, quantity: i + 1 })).id);

  const first = await send('GET', '/api/orders');
  expect(first.status).toBe(200);
  const page1 = (await first.json()) as {
    data: { id: number }[];
    page: number;
    pageCount: number;
    total: number;
  };
  expect(page1.page).toBe(1);
  expect(page1.data).toHaveLength(10);
  expect(page1.data[0].id).toBe(ids[10]);
  expect(page1.data.map((order) => order.id)).toEqual(ids.slice(1).reverse());
  expect(page1.total).toBe(11);
  expect(page1.pageCount).toBe(2);

  const page2 = (await (await send('GET', '/api/orders?page=2')).json()) as { data: { id: number }[] };
  expect(page2.data.map((order) => order.id)).toEqual([ids[0]]);
});

test('PUT and PATCH replace an order: 200 with the stored values', async () => {
  const { id } = await created();
  const put = await send('PUT', `/api/orders/${id}`, { ...lamp, quantity: 7 });
  expect(put.status).toBe(200);
  expect(await put.json()).toMatchObject({ id, quantity: 7 });
  const patch = await send('PATCH', `/api/orders/${id}`, { ...lamp, product: 'Copper lamp' });
  expect(patch.status).toBe(200);
  expect(await (await send('GET', `/api/orders/${id}`)).json()).toMatchObject({ product: 'Copper lamp' });
});

test('DELETE removes an order: 204 with no body, then 404 for it', async () => {
  const { id } = await created();
  const res = await send('DELETE', `/api/orders/${id}`);
  expect(res.status).toBe(204);
  expect(await res.text()).toBe('');
  expect((await send('GET', `/api/orders/${id}`)).status).toBe(404);
  expect((await send('DELETE', `/api/orders/${id}`)).status).toBe(404);
});

test.each([
  ['GET', '/api/orders/999999'],
  ['PUT', '/api/orders/999999'],
  ['DELETE', '/api/orders/999999'],
  ['GET', '/api/orders/abc'],
  ['GET', '/api/orders/0'],
  ['GET', '/api/orders/99999999999'],
])('%s %s is 404 {"error": ...}', async (method, path) => {
  const res = await send(method, path, method === 'PUT' ? lamp : undefined);
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ error: `order ${path.split('/').pop() as string} not found` });
});

test('an invalid order is 422 with a message for each field, and nothing is stored', async () => {
  const res = await send('POST', '/api/orders', { customer: '', product: 'x'.repeat(81), quantity: 0 });
  expect(res.status).toBe(422);
  expect(await res.json()).toEqual({
    error: 'validation failed',
    fields: {
      customer: ['customer must be 1 to 80 characters'],
      product: ['product must be 1 to 80 characters'],
      quantity: ['quantity must be at least 1'],
    },
  });
  expect(((await (await send('GET', '/api/orders')).json()) as { total: number }).total).toBe(0);
});

test('a NUL character, which PostgreSQL cannot store, is 422 rather than a failed insert', async () => {
  const res = await send('POST', '/api/orders', { ...lamp, customer: 'Ada\u0000', product: '\u0000' });
  expect(res.status).toBe(422);
  expect(await res.json()).toEqual({
    error: 'validation failed',
    fields: {
      customer: ['customer must not contain a NUL character'],
      product: ['product must not contain a NUL character'],
    },
  });
});

test('a name the column cannot hold, counted as PostgreSQL counts it, is 422 naming the field', async () => {
  // validator.js's length does not count variation selectors; varchar(80) does.
  const res = await send('POST', '/api/orders', { ...lamp, customer: 'a\uFE0F'.repeat(80) });
  expect(res.status).toBe(422);
  expect(await res.json()).toEqual({
    error: 'validation failed',
    fields: { customer: ['customer must be 1 to 80 characters'] },
  });
});

test('a missing field says it is required, and a number that is none says so alone', async () => {
  const missing = await send('POST', '/api/orders', {});
  expect(await missing.json()).toEqual({
    error: 'validation failed',
    fields: {
      customer: ['customer is required'],
      product: ['product is required'],
      quantity: ['quantity is required'],
    },
  });
  const notANumber = await send('POST', '/api/orders', { ...lamp, quantity: 'NaN' });
  expect(await notANumber.json()).toEqual({
    error: 'validation failed',
    fields: { quantity: ['quantity must be a whole number'] },
  });
});

test('an invalid update is 422 and leaves the order as it was', async () => {
  const { id } = await created();
  const res = await send('PUT', `/api/orders/${id}`, { ...lamp, quantity: 2.5 });
  expect(res.status).toBe(422);
  expect(await res.json()).toEqual({
    error: 'validation failed',
    fields: { quantity: ['quantity must be a whole number'] },
  });
  expect(await (await send('GET', `/api/orders/${id}`)).json()).toMatchObject({ quantity: 2 });
});

test('malformed JSON is 400, a body of another type 415, a bad page 422 naming it', async () => {
  const malformed = await send('POST', '/api/orders', '{"customer":');
  expect(malformed.status).toBe(400);
  expect(await malformed.json()).toEqual({ error: expect.stringMatching(/JSON/i) });

  const text = await send('POST', '/api/orders', 'customer=Ada', 'text/plain');
  expect(text.status).toBe(415);

  for (const [bad, message] of [
    ['0', 'page must be at least 1'],
    ['two', 'page must be a whole number'],
    ['1.5', 'page must be a whole number'],
    ['1&page=2', 'page must be a whole number'],
    ['2147483648', 'page must be at most 2147483647'],
  ]) {
    const page = await send('GET', `/api/orders?page=${bad}`);
    expect(page.status).toBe(422);
    expect(await page.json()).toEqual({ error: 'validation failed', fields: { page: [message] } });
  }
});

test('PATCH changes only the fields it sends; PUT needs them all', async () => {
  const { id } = await created();
  const patched = await send('PATCH', `/api/orders/${id}`, { quantity: 7 });
  expect(patched.status).toBe(200);
  expect(await patched.json()).toMatchObject({ ...lamp, quantity: 7 });
  const unchanged = await send('PATCH', `/api/orders/${id}`, {});
  expect(unchanged.status).toBe(200);
  expect(await unchanged.json()).toMatchObject({ ...lamp, quantity: 7 });

  const invalid = await send('PATCH', `/api/orders/${id}`, { customer: null, quantity: 0 });
  expect(invalid.status).toBe(422);
  expect(await invalid.json()).toEqual({
    error: 'validation failed',
    fields: { customer: ['customer is required'], quantity: ['quantity must be at least 1'] },
  });
  const put = await send('PUT', `/api/orders/${id}`, { quantity: 3 });
  expect(put.status).toBe(422);
  expect(await (await send('GET', `/api/orders/${id}`)).json()).toMatchObject({ ...lamp, quantity: 7 });
});

describe("writes need the operator's API token as a bearer token; reads stay open", () => {
  const wrong = { authorization: 'Bearer keel_not-the-token' };

  test.each([
    ['POST', '/api/orders'],
    ['PUT', '/api/orders/1'],
    ['PATCH', '/api/orders/1'],
    ['DELETE', '/api/orders/1'],
  ])('%s %s without a token, or with a wrong one, is 401 and changes nothing', async (method, path) => {
    const { id } = await created();
    expect(id).toBe(1); // the order the paths name
    const none = await send(method, path, lamp, 'application/json', {});
    const guessed = await send(method, path, lamp, 'application/json', wrong);
    expect([none.status, guessed.status]).toEqual([401, 401]);
    expect(await guessed.json()).toEqual({ error: 'unauthenticated' });
    expect(guessed.headers.get('www-authenticate')).toBe('Bearer');
    const orders = (await (await send('GET', '/api/orders')).json()) as { data: unknown[]; total: number };
    expect(orders.total).toBe(1);
    expect(orders.data).toEqual([{ id, ...lamp, createdAt: expect.any(String) }]);
  });

  test('reads need no token', async () => {
    const { id } = await created();
    expect((await send('GET', '/api/orders', undefined, 'application/json', {})).status).toBe(200);
    expect((await send('GET', `/api/orders/${id}`, undefined, 'application/json', {})).status).toBe(200);
  });

  test('a write with the right token carries no WWW-Authenticate', async () => {
    const res = await send('POST', '/api/orders', lamp);
    expect(res.status).toBe(201);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });
});
