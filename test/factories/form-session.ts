/** A browser's session with a keel application: its cookies, and the CSRF token its forms carry. */
export interface FormSession {
  /** Sends `fields` as a urlencoded form with the session's cookie and token (unless `_csrf` is given). */
  post(path: string, fields: Record<string, string>): Promise<Response>;
  /** A GET with the session's cookie. */
  get(path: string): Promise<Response>;
  /** Loads `formPath` and takes the token its form carries now, as a browser's next page does (after a login). */
  load(formPath: string): Promise<void>;
  readonly token: string;
  /** The `Cookie` header the session sends. */
  readonly cookie: string;
}

/** An account to log in with through the application's `/login` form. */
export interface LoginCredentials {
  readonly email: string;
  readonly password: string;
}

/**
 * Opens a session as a browser does: logs in first through `/login` when `logInAs` is given, then
 * loads `formPath` (a page with a form), keeps the cookies it sets and the `_csrf` token the form
 * carries; later answers' cookies replace them (flash messages live there). Redirects are not
 * followed.
 *
 * @example
 * const browser = await openFormSession(url, '/orders/create', { logInAs: { email, password } });
 * const res = await browser.post('/orders', { customer: 'Ada' });
 */
export async function openFormSession(
  baseUrl: string,
  formPath: string,
  { logInAs }: { logInAs?: LoginCredentials } = {},
): Promise<FormSession> {
  const cookies = new Map<string, string>();
  const keep = (res: Response): Response => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
    return res;
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const formOf = async (path: string): Promise<string> => {
    const page = keep(
      await fetch(`${baseUrl}${path}`, { headers: { cookie: cookieHeader() }, redirect: 'manual' }),
    );
    const field = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
    if (!field) throw new Error(`${path} has no _csrf field (it answered ${page.status})`);
    return field;
  };
  if (logInAs) {
    const loginToken = await formOf('/login');
    const loggedIn = keep(
      await fetch(`${baseUrl}/login`, {
        method: 'POST',
        headers: { cookie: cookieHeader() },
        body: new URLSearchParams({ ...logInAs, _csrf: loginToken }),
        redirect: 'manual',
      }),
    );
    if (loggedIn.status !== 303) throw new Error(`the login as ${logInAs.email} answered ${loggedIn.status}`);
  }
  let token = await formOf(formPath);
  return {
    get token() {
      return token;
    },
    load: async (path) => {
      token = await formOf(path);
    },
    get cookie() {
      return cookieHeader();
    },
    get: async (path) =>
      keep(await fetch(`${baseUrl}${path}`, { headers: { cookie: cookieHeader() }, redirect: 'manual' })),
    post: async (path, fields) =>
      keep(
        await fetch(`${baseUrl}${path}`, {
          method: 'POST',
          headers: { cookie: cookieHeader() },
          body: new URLSearchParams({ _csrf: token, ...fields }),
          redirect: 'manual',
        }),
      ),
  };
}
