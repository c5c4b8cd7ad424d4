import { useTwoAuthReplicas, type AuthReplica } from '../factories/auth-app';
import { openFormSession } from '../factories/form-session';

jest.setTimeout(60_000);

describe('session(): two replicas, one database', () => {
  const replicas = useTwoAuthReplicas();

  const me = (replica: AuthReplica, cookie: string) =>
    fetch(`${replica.url}/me`, { headers: { cookie } }).then(async (res) => ({
      status: res.status,
      body: await res.text(),
      challenge: res.headers.get('www-authenticate'),
    }));

  test('a cookie captured before login does not authenticate after it', async () => {
    const browser = await openFormSession(replicas.a.url, '/login');
    const before = browser.cookie;
    expect(before).toContain('keel.session=');
    const login = await browser.post('/login', { user: '1' });
    expect(login.status).toBe(201);
    expect(browser.cookie).not.toBe(before);

    expect((await me(replicas.a, browser.cookie)).status).toBe(200);
    const replayed = await me(replicas.a, before);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toBe('{"error":"unauthenticated"}');
    expect(replayed.challenge).toBe('Cookie name="keel.session", Bearer');
    // The session was renewed: the CSRF token of the page before login opens no form after it.
    const stale = await browser.post('/logout', {});
    expect(stale.status).toBe(403);
  });

  test('after logout on replica A, the old cookie replayed on replica B is anonymous', async () => {
    const browser = await openFormSession(replicas.a.url, '/login');
    await browser.post('/login', { user: '2' });
    const loggedIn = browser.cookie;
    const onB = await me(replicas.b, loggedIn);
    expect(onB.status).toBe(200);
    expect(JSON.parse(onB.body)).toEqual({ id: '2', name: 'Grace' });

    // A fresh page for the CSRF token of the logged-in session, then log out on A.
    const page = await fetch(`${replicas.a.url}/login`, { headers: { cookie: loggedIn } });
    const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    // The page's answer renews the cookies it sets (the session now holds the token).
    const cookies = new Map(loggedIn.split('; ').map((pair) => [pair.split('=')[0], pair] as const));
    for (const line of page.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      cookies.set(pair.split('=')[0], pair);
    }
    const cookie = [...cookies.values()].join('; ');
    const logout = await fetch(`${replicas.a.url}/logout`, {
      method: 'POST',
      headers: { cookie },
      body: new URLSearchParams({ _csrf: token }),
    });
    expect(logout.status).toBe(204);

    const replayed = await me(replicas.b, loggedIn);
    expect(replayed.status).toBe(401);
    expect(replicas.b.log.entries().some((entry) => entry.msg === 'authentication failed: logged_out')).toBe(
      true,
    );
    expect(await replicas.database.query("SELECT user_id FROM keel_sessions WHERE user_id = '2'")).toEqual(
      [],
    );
  });
});
