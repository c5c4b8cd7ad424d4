import type { HttpBadInput } from './bad-inputs';

/** What a real client of the sample carries: the API's bearer token, and a page session's cookie and CSRF token. */
export interface Credentials {
  readonly apiToken: string;
  readonly cookie: string;
  readonly csrfToken: string;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Logs in as a browser and as an API client do: the login form, posted with its `_csrf` token, gives
 * a session cookie (renewed by the login, so the token is read again from a form behind it), and
 * `POST /api/tokens` an API token. The session lives in a signed cookie and a row of the database,
 * so one stays valid for the whole run.
 *
 * @example
 * const credentials = await openCredentials(port, { email, password });
 */
export async function openCredentials(
  port: number,
  operator: { readonly email: string; readonly password: string },
): Promise<Credentials> {
  const base = `http://127.0.0.1:${port}`;
  const loginPage = await fetch(`${base}/login`);
  const visitor = cookiesOf(loginPage);
  const loginToken = csrfFieldOf(await loginPage.text(), 'GET /login');
  const loggedIn = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { cookie: visitor, 'content-type': FORM_TYPE },
    body: new URLSearchParams({ ...operator, _csrf: loginToken }),
    redirect: 'manual',
  });
  const cookie = cookiesOf(loggedIn);
  if (loggedIn.status !== 303 || !cookie) throw new Error(`POST /login answered ${loggedIn.status}`);
  const form = await fetch(`${base}/orders/create`, { headers: { cookie } });
  const csrfToken = csrfFieldOf(await form.text(), 'GET /orders/create');
  const issued = await fetch(`${base}/api/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...operator, name: 'soak' }),
  });
  if (issued.status !== 201) throw new Error(`POST /api/tokens answered ${issued.status}`);
  const { token: apiToken } = (await issued.json()) as { token: string };
  return { apiToken, cookie, csrfToken };
}

function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .join('; ');
}

function csrfFieldOf(html: string, page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`${page} has no _csrf field`);
  return token;
}

/**
 * `input` as an authorised client would send it: a write to the JSON API with the bearer token, a
 * form with the session's cookie and its `_csrf` field (unless the input is about a bad one), so
 * that bad input reaches validation and the database rather than stopping at the guards.
 *
 * @example
 * send(port, agent, authorised(input, credentials));
 */
export function authorised(input: HttpBadInput, credentials: Credentials): HttpBadInput {
  if (input.method === 'GET' || input.method === 'HEAD') return input;
  if (input.path.startsWith('/api/')) {
    return { ...input, headers: { authorization: `Bearer ${credentials.apiToken}`, ...input.headers } };
  }
  const isForm = input.headers?.['content-type'] === FORM_TYPE && typeof input.body === 'string';
  if (!isForm || (input.body as string).includes('_csrf=')) return input;
  const body = `${input.body as string}&_csrf=${encodeURIComponent(credentials.csrfToken)}`;
  return { ...input, headers: { cookie: credentials.cookie, ...input.headers }, body };
}
