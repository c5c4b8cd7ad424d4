import { expect, test } from '@jest/globals';
import type { FormSession } from '../factories/form-session';
import { openOperatorSession, useSample } from '../factories/sample';

// What the browser test does not look at: the HTML pages' answers to bad input, over plain HTTP.
const sample = useSample({ embedded: true });

// Forms are posted as a browser posts them: with the session's cookie and CSRF token, the
// operator logged in once for the whole file (a login derives a key, on purpose slowly).
let operator: Promise<FormSession> | undefined;
async function post(path: string, fields: Record<string, string>) {
  operator ??= openOperatorSession(sample().url);
  return (await operator).post(path, fields);
}

async function storedOrderPath(fields: Record<string, string>): Promise<string> {
  const res = await post('/orders', fields);
  expect(res.status).toBe(303);
  return res.headers.get('location') as string;
}

test.each([
  ['GET', '/orders/424242'],
  ['GET', '/orders/424242/edit'],
  ['GET', '/orders/not-a-number'],
])('%s %s is the 404 page, to the logged-in operator', async (_method, path) => {
  operator ??= openOperatorSession(sample().url);
  const res = await (await operator).get(path);
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const page = await res.text();
  expect(page).toContain('<h1>Not found</h1>');
  expect(page).toContain(`<code>${path}</code>`);
});

test('a form PUT or DELETE through _method of a missing order is the 404 page', async () => {
  const put = await post('/orders/424242', { _method: 'PUT', customer: 'A', product: 'B', quantity: '1' });
  expect(put.status).toBe(404);
  const del = await post('/orders/424242', { _method: 'DELETE' });
  expect(del.status).toBe(404);
  expect(await del.text()).toContain('Not found');
});

test('what a customer typed is shown escaped, never as markup', async () => {
  const location = await storedOrderPath({
    customer: '<script>alert(1)</script>',
    product: 'Lamp',
    quantity: '1',
  });
  const page = await (await fetch(`${sample().url}${location}`)).text();
  expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(page).not.toContain('<script>alert(1)</script>');
});

test('a form that does not validate comes back 422 with what was typed and the messages', async () => {
  const res = await post('/orders', { customer: 'Grace', product: '', quantity: 'many' });
  expect(res.status).toBe(422);
  const page = await res.text();
  expect(page).toContain('value="Grace"');
  expect(page).toContain('value="many"');
  expect(page).toContain('product must be 1 to 80 characters');
  expect(page).toContain('quantity must be a whole number');
});

test('a form field with a NUL character comes back 422 with its message', async () => {
  const res = await post('/orders', { customer: 'Grace\u0000', product: 'Lamp', quantity: '1' });
  expect(res.status).toBe(422);
  expect(await res.text()).toContain('customer must not contain a NUL character');
});

test('a form name the column cannot hold comes back 422 with its message, and 0x10 is no number', async () => {
  const res = await post('/orders', { customer: 'a\uFE0F'.repeat(80), product: 'Lamp', quantity: '0x10' });
  expect(res.status).toBe(422);
  const page = await res.text();
  expect(page).toContain('customer must be 1 to 80 characters');
  expect(page).toContain('quantity must be a whole number');
});

test('an edit that does not validate comes back 422 and leaves the order as it was', async () => {
  const location = await storedOrderPath({ customer: 'Grace', product: 'Compiler', quantity: '3' });
  const res = await post(location, { _method: 'PUT', customer: 'Grace', product: 'Compiler', quantity: '0' });
  expect(res.status).toBe(422);
  expect(await res.text()).toContain('quantity must be at least 1');
  expect(await (await fetch(`${sample().url}${location}`)).text()).toContain('<dd>3</dd>');
});

test('the index pages through the orders and links between the pages', async () => {
  for (let i = 0; i < 11; i++)
    await storedOrderPath({ customer: `Customer ${i}`, product: 'Lamp', quantity: '1' });
  const first = await (await fetch(`${sample().url}/orders`)).text();
  expect(first).toContain('rel="next" href="/orders?page=2"');
  expect(first).not.toContain('rel="prev"');
  const second = await (await fetch(`${sample().url}/orders?page=2`)).text();
  expect(second).toContain('rel="prev" href="/orders?page=1"');
  const past = await fetch(`${sample().url}/orders?page=99`);
  expect(past.status).toBe(200);
  expect(await past.text()).toContain('There is no page 99');
  expect((await fetch(`${sample().url}/orders?page=-1`)).status).toBe(400);
});
