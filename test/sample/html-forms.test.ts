import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  openOperatorSession,
  sampleAuthorization,
  startSample,
  useSample,
  type RunningSample,
} from '../factories/sample';
import { closedPort, isPostgresServer, postgresUrl } from '../factories/test-databases';

// The sample's forms as a browser sends them: sessions, CSRF tokens and flash messages, over HTTP.
const sample = useSample(isPostgresServer() ? { scratchOn: postgresUrl() } : { embedded: true });
const order = { customer: 'Ada', product: 'Lamp', quantity: '2' };

async function orderCount(): Promise<number> {
  const res = await fetch(`${sample().url}/api/orders`);
  return ((await res.json()) as { total: number }).total;
}

test('a created order shows "Order N created" on the page it lands on, once', async () => {
  const browser = await openOperatorSession(sample().url);
  const created = await browser.post('/orders', order);
  expect(created.status).toBe(303);
  const location = created.headers.get('location') as string;
  const id = location.split('/').pop() as string;
  const landed = await (await browser.get(location)).text();
  expect(landed).toContain(`<p class="flash" role="status">Order ${id} created</p>`);
  const reloaded = await (await browser.get(location)).text();
  expect(reloaded).not.toContain('class="flash"');
});

test('an update and a delete leave their flash messages too', async () => {
  const browser = await openOperatorSession(sample().url);
  const location = (await browser.post('/orders', order)).headers.get('location') as string;
  const id = location.split('/').pop() as string;
  await browser.get(location); // the "created" message is read here

  const updated = await browser.post(location, { _method: 'PUT', ...order, quantity: '3' });
  expect(updated.status).toBe(303);
  expect(await (await browser.get(location)).text()).toContain(`Order ${id} updated`);

  const deleted = await browser.post(location, { _method: 'DELETE' });
  expect(deleted.headers.get('location')).toBe('/orders');
  expect(await (await browser.get('/orders')).text()).toContain(`Order ${id} deleted`);
  expect(await (await browser.get('/orders')).text()).not.toContain(`Order ${id} deleted`);
});

test.each([
  ['without a token', async () => ({ fields: { _csrf: '' } })],
  ['with a wrong token', async () => ({ fields: { _csrf: 'a'.repeat(64) } })],
  [
    "with another session's token",
    async () => ({ fields: { _csrf: (await openOperatorSession(sample().url)).token } }),
  ],
])('a form posted %s is 403 and no order is stored', async (_case, prepare) => {
  const browser = await openOperatorSession(sample().url);
  const { fields } = await prepare();
  const before = await orderCount();
  const res = await browser.post('/orders', { ...order, ...fields });
  expect(res.status).toBe(403);
  expect(await res.json()).toEqual({ error: 'invalid CSRF token' });
  expect(await orderCount()).toBe(before);
});

test('a delete posted without the session cookie is sent to the login, and the order stays', async () => {
  const browser = await openOperatorSession(sample().url);
  const location = (await browser.post('/orders', order)).headers.get('location') as string;
  const forged = await fetch(`${sample().url}${location}`, {
    method: 'POST',
    body: new URLSearchParams({ _method: 'DELETE', _csrf: browser.token }),
    redirect: 'manual',
  });
  // Without the cookie the request is anonymous: authentication stops it before the CSRF check.
  expect(forged.status).toBe(303);
  expect(forged.headers.get('location')).toBe('/login');
  expect((await fetch(`${sample().url}/api${location}`)).status).toBe(200);
});

test('the JSON API is not asked for a CSRF token', async () => {
  const res = await fetch(`${sample().url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await sampleAuthorization(sample().url)) },
    body: JSON.stringify({ ...order, quantity: 2 }),
  });
  expect(res.status).toBe(201);
});

test('no template or controller writes a path by hand: every link comes from urlFor', async () => {
  const root = path.join(__dirname, '..', '..', 'sample');
  const files = [
    ...readdirSync(path.join(root, 'views'), { recursive: true, encoding: 'utf8' }).map((file) =>
      path.join('views', file),
    ),
    ...readdirSync(path.join(root, 'src', 'http'), { recursive: true, encoding: 'utf8' }).map((file) =>
      path.join('src', 'http', file),
    ),
  ].filter((file) => /\.(html|ts)$/.test(file));
  expect(files).toContain(path.join('views', 'orders', 'show.html'));
  const handWritten = files.flatMap((file) =>
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .filter((line) => /(href|action)="\/|redirect\(\d+, ['`]\//.test(line))
      .map((line) => `${file}: ${line.trim()}`),
  );
  expect(handWritten).toEqual([]);
  // And what urlFor wrote is the route's path.
  const browser = await openOperatorSession(sample().url);
  const page = await (await browser.get('/orders/create')).text();
  expect(page).toContain('action="/orders"');
});

describe('two instances with the same SESSION_SECRET, behind no balancer', () => {
  let other: RunningSample | undefined;
  let stranger: RunningSample | undefined;
  beforeAll(async () => {
    // Its database is unreachable: the welcome page and its layout need none.
    const unreachable = { url: `postgres://postgres@127.0.0.1:${await closedPort()}/orders` };
    other = await startSample(unreachable);
    stranger = await startSample(unreachable, { env: { SESSION_SECRET: 'a-different-secret' } });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([other?.stop(), stranger?.stop()]);
  });

  test("a flash set on one is read on the other; another secret's instance reads nothing", async () => {
    const browser = await openOperatorSession(sample().url);
    const id = ((await browser.post('/orders', order)).headers.get('location') as string)
      .split('/')
      .pop() as string;
    const headers = { cookie: browser.cookie };
    const onStranger = await (await fetch(`${stranger?.url}/`, { headers })).text();
    expect(onStranger).not.toContain('class="flash"');
    const onOther = await (await fetch(`${other?.url}/`, { headers })).text();
    expect(onOther).toContain(`Order ${id} created`);
  });
});
