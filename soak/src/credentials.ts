import type { HttpBadInput } from './bad-inputs';

/** What a real client of the sample carries: the API's bearer token, and a page session's cookie and CSRF token. */
export interface Credentials {
  readonly apiToken: string;
  readonly cookie: string;
  readonly csrfToken: string;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Opens a page session as a browser does: loads the order form and keeps the session cookie it sets
 * and the `_csrf` token it carries. The session lives in a signed cookie, so one stays valid for
 * the whole run.
 *
 * @example
 * const credentials = await openCredentials(port, apiToken);
 */
export async function openCredentials(port: number, apiToken: string): Promise<Credentials> {
  const page = await fetch(`http://127.0.0.1:${port}/orders/create`);
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .join('; ');
  const csrfToken = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrfToken || !cookie) throw new Error('GET /orders/create gave no session cookie or no _csrf field');
  return { apiToken, cookie, csrfToken };
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
