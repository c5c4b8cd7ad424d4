import {
  Controller,
  Cookies,
  Get,
  Module,
  SessionModule,
  type Application,
  type ApplicationOptions,
  type Context,
} from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { captureLog } from '../factories/log';

@Controller('cookies')
class CookieController {
  @Get('set')
  set(ctx: Context) {
    ctx.setCookie('cart', 'pen,ink', { signed: true });
    ctx.setCookie('theme', 'dark');
    return {};
  }

  @Get('tuned')
  tuned(ctx: Context) {
    ctx.setCookie('theme', 'light', { maxAgeMs: 60_000, secure: true, sameSite: 'strict', httpOnly: false });
    return {};
  }

  @Get('clear')
  clear(ctx: Context) {
    ctx.clearCookie('theme');
    return {};
  }

  @Get('read')
  read(ctx: Context) {
    return {
      cart: ctx.cookie('cart', { signed: true }) ?? null,
      rawCart: ctx.cookie('cart') ?? null,
      theme: ctx.cookie('theme') ?? null,
    };
  }

  @Get('params')
  params(
    @Cookies('theme') theme: string | undefined,
    @Cookies('cart', { signed: true }) cart: string | undefined,
    @Cookies() all: Record<string, string>,
  ) {
    return { theme: theme ?? null, cart: cart ?? null, names: Object.keys(all).sort() };
  }

  @Get('bad')
  bad(ctx: Context) {
    ctx.setCookie('bad;name', 'x');
    return {};
  }
}

const apps: Application[] = [];
afterEach(() => Promise.all(apps.splice(0).map((app) => app.close())));

async function serve(options: ApplicationOptions, root = moduleWith({ controllers: [CookieController] })) {
  const app = await bootApp(root, options);
  apps.push(app);
  return (await app.listen(0, '127.0.0.1')).url;
}

async function get(url: string, cookie?: string) {
  const response = await fetch(url, {
    headers: cookie === undefined ? {} : { cookie },
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    setCookies: response.headers.getSetCookie(),
    body: (await response.json()) as unknown,
  };
}

/** The `name=value` pairs of Set-Cookie lines, as a browser sends them back. */
function sentBack(setCookies: readonly string[]): string {
  return setCookies.map((line) => line.split(';', 1)[0]).join('; ');
}

test('a written cookie is HttpOnly, SameSite=Lax and Path=/, not Secure outside production, and each is its own Set-Cookie', async () => {
  const url = await serve({ cookieSecrets: 'a-long-random-key' });
  const { setCookies } = await get(`${url}/cookies/set`);
  expect(setCookies).toHaveLength(2);
  expect(setCookies[1]).toBe('theme=dark; Path=/; HttpOnly; SameSite=Lax');
  expect(setCookies[0]).toMatch(/^cart=s%3Apen%2Cink\.[\w%]+; Path=\/; HttpOnly; SameSite=Lax$/);
});

test('options change the defaults, and clearCookie expires the cookie', async () => {
  const url = await serve({});
  expect((await get(`${url}/cookies/tuned`)).setCookies).toEqual([
    'theme=light; Max-Age=60; Path=/; Secure; SameSite=Strict',
  ]);
  expect((await get(`${url}/cookies/clear`)).setCookies).toEqual([
    'theme=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
  ]);
});

test('in production a cookie is Secure by default', async () => {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const url = await serve({}).finally(() => {
    process.env.NODE_ENV = previous;
  });
  expect((await get(`${url}/cookies/clear`)).setCookies[0]).toContain('; Secure;');
});

test('a signed cookie reads back; a tampered or unsigned one reads as absent', async () => {
  const url = await serve({ cookieSecrets: 'a-long-random-key' });
  const cookies = sentBack((await get(`${url}/cookies/set`)).setCookies);
  expect((await get(`${url}/cookies/read`, cookies)).body).toEqual({
    cart: 'pen,ink',
    rawCart: expect.stringMatching(/^s:pen,ink\./) as unknown,
    theme: 'dark',
  });

  const tampered = cookies.replace('pen%2Cink', 'pen%2Cgold');
  expect((await get(`${url}/cookies/read`, tampered)).body).toMatchObject({ cart: null, theme: 'dark' });
  expect((await get(`${url}/cookies/read`, 'cart=pen%2Cink')).body).toMatchObject({
    cart: null,
    rawCart: 'pen,ink',
  });
  expect((await get(`${url}/cookies/read`)).body).toEqual({ cart: null, rawCart: null, theme: null });
});

test('after a rotation the previous key still verifies, and the new one signs', async () => {
  const before = await serve({ cookieSecrets: 'the-first-key' });
  const after = await serve({ cookieSecrets: ['the-second-key', 'the-first-key'] });
  const old = sentBack((await get(`${before}/cookies/set`)).setCookies);
  expect((await get(`${after}/cookies/read`, old)).body).toMatchObject({ cart: 'pen,ink' });

  const renewed = sentBack((await get(`${after}/cookies/set`)).setCookies);
  expect((await get(`${after}/cookies/read`, renewed)).body).toMatchObject({ cart: 'pen,ink' });
  // Signed with the new key, which the old application does not know.
  expect((await get(`${before}/cookies/read`, renewed)).body).toMatchObject({ cart: null });
});

test('@Cookies reads a cookie, a signed one, or all of them', async () => {
  const url = await serve({ cookieSecrets: 'a-long-random-key' });
  const cookies = sentBack((await get(`${url}/cookies/set`)).setCookies);
  expect((await get(`${url}/cookies/params`, cookies)).body).toEqual({
    theme: 'dark',
    cart: 'pen,ink',
    names: ['cart', 'theme'],
  });
  expect((await get(`${url}/cookies/params`, 'cart=forged')).body).toEqual({
    theme: null,
    cart: null,
    names: ['cart'],
  });
});

test("without cookieSecrets, SessionModule's secret signs and verifies", async () => {
  @Module({
    imports: [SessionModule.forRoot({ secret: () => 'a-session-secret-of-some-length' })],
    controllers: [CookieController],
  })
  class AppModule {}
  const url = await serve({}, AppModule);
  const cookies = sentBack((await get(`${url}/cookies/set`)).setCookies);
  expect((await get(`${url}/cookies/read`, cookies)).body).toMatchObject({ cart: 'pen,ink' });
});

test('signing without a key, or a cookie name a browser would misread, answers 500 and logs the fix', async () => {
  const log = captureLog();
  const url = await serve({ logger: log.logger });
  expect((await get(`${url}/cookies/set`)).status).toBe(500);
  expect((await get(`${url}/cookies/bad`)).status).toBe(500);
  const codes = log
    .entries()
    .filter((entry) => entry.msg === 'request failed')
    .map((entry) => (entry.err as { message: string }).message.split(':', 1)[0]);
  expect(codes).toEqual(['E_NO_COOKIE_SECRET', 'E_INVALID_COOKIE']);
});

test.each([[[]], [''], [['key', '']], [42]])('cookieSecrets %j is refused at boot', async (secrets) => {
  await expect(bootApp(moduleWith({}), { cookieSecrets: secrets as string })).rejects.toThrow(
    /E_INVALID_OPTION: the option cookieSecrets is .*: expected a key, or a list of keys newest first, none empty/,
  );
});
