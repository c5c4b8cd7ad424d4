import { expect, test } from '@jest/globals';
import { openFormSession } from '../factories/form-session';
import { SAMPLE_OPERATOR, openOperatorSession, useSample } from '../factories/sample';
import { isPostgresServer, postgresUrl } from '../factories/test-databases';

// The sample's two ways in, over real HTTP: the HTML pages' login (a session) and the JSON API's
// tokens (`POST /api/tokens`), both for the operator of ADMIN_EMAIL and ADMIN_PASSWORD.
const sample = useSample(isPostgresServer() ? { scratchOn: postgresUrl() } : { embedded: true });
const lamp = { customer: 'Ada', product: 'Lamp', quantity: 2 };

function issueToken(credentials: object): Promise<Response> {
  return fetch(`${sample().url}/api/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
}

function postOrder(authorization: string | undefined): Promise<Response> {
  return fetch(`${sample().url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(lamp),
  });
}

test('a visitor who is not logged in is sent from a form page to the login, and back to it after', async () => {
  const anonymous = await fetch(`${sample().url}/orders/7/edit`, { redirect: 'manual' });
  expect(anonymous.status).toBe(303);
  expect(anonymous.headers.get('location')).toBe('/login?next=%2Forders%2F7%2Fedit');

  const visitor = await openFormSession(sample().url, '/login?next=%2Forders%2Fcreate');
  const loggedIn = await visitor.post('/login', { ...SAMPLE_OPERATOR, next: '/orders/create' });
  expect(loggedIn.status).toBe(303);
  expect(loggedIn.headers.get('location')).toBe('/orders/create');
  const form = await visitor.get('/orders/create');
  expect(form.status).toBe(200);
  expect(await form.text()).toContain(SAMPLE_OPERATOR.email);
});

test('a wrong password, or an unknown email, is the form again, 401, saying only that the login failed', async () => {
  for (const credentials of [
    { ...SAMPLE_OPERATOR, password: 'not the password' },
    { ...SAMPLE_OPERATOR, email: 'someone.else@example.test' },
  ]) {
    const visitor = await openFormSession(sample().url, '/login');
    const refused = await visitor.post('/login', credentials);
    expect(refused.status).toBe(401);
    const page = await refused.text();
    expect(page).toContain('Wrong email or password.');
    expect(page).toContain(`value="${credentials.email}"`);
    expect(page).not.toContain(credentials.password);
    expect((await visitor.get('/orders/create')).status).toBe(303);
  }
});

test('a login goes back only to a path of the site, never to another site', async () => {
  for (const next of ['//evil.example/orders', 'https://evil.example/', '/\\evil.example']) {
    const visitor = await openFormSession(sample().url, '/login');
    const loggedIn = await visitor.post('/login', { ...SAMPLE_OPERATOR, next });
    expect(loggedIn.headers.get('location')).toBe('/orders');
  }
});

test('after a logout, a copy of the logged-in cookie opens no form page', async () => {
  const browser = await openOperatorSession(sample().url);
  const copied = browser.cookie;
  const loggedOut = await browser.post('/logout', {});
  expect(loggedOut.status).toBe(303);
  const replayed = await fetch(`${sample().url}/orders/create`, {
    headers: { cookie: copied },
    redirect: 'manual',
  });
  expect(replayed.status).toBe(303);
  expect(replayed.headers.get('location')).toBe('/login?next=%2Forders%2Fcreate');
});

test('POST /api/tokens trades the operator’s credentials for a token that writes, until it is revoked', async () => {
  const issued = await issueToken({ ...SAMPLE_OPERATOR, name: 'deploy script' });
  expect(issued.status).toBe(201);
  const { id, token, expiresAt } = (await issued.json()) as { id: string; token: string; expiresAt: string };
  expect(token).toMatch(/^keel_/);
  expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
  expect((await postOrder(`Bearer ${token}`)).status).toBe(201);

  const revoked = await fetch(`${sample().url}/api/tokens/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(revoked.status).toBe(204);
  const refused = await postOrder(`Bearer ${token}`);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual({ error: 'unauthenticated' });
});

test('wrong credentials get no token, and a write with none is 401 naming the Bearer scheme', async () => {
  const wrong = await issueToken({ ...SAMPLE_OPERATOR, password: 'not the password' });
  expect(wrong.status).toBe(401);
  expect(await wrong.json()).toEqual({ error: 'wrong email or password' });
  const invalid = await issueToken({ email: SAMPLE_OPERATOR.email });
  expect(invalid.status).toBe(422);

  const none = await postOrder(undefined);
  expect(none.status).toBe(401);
  expect(none.headers.get('www-authenticate')).toBe('Bearer');
});
