import type { NextFunction, Request, Response } from 'express';
import path from 'node:path';
import request from 'supertest';
import { ApiResource, Controller, Get, Module, Post, SessionModule, SkipCsrf, type Context } from 'keel';
import { bootApp, useServedApp } from '../factories/app';

const VIEWS = path.join(__dirname, '..', 'fixtures', 'views-session');
const SECRET = 'a-long-random-secret-for-the-tests';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8';

const stored: string[] = [];

@Controller('notes')
class NoteController {
  @Get('create', { name: 'notes.create' }) create(ctx: Context) {
    ctx.html(200, 'form.html');
  }
  @Post('', { name: 'notes.store' }) store(ctx: Context) {
    stored.push(ctx.form('text', ''));
    ctx.flash('success', `Note ${stored.length} created`);
    ctx.redirect(303, ctx.urlFor('notes.flash'));
  }
  @Get('flash', { name: 'notes.flash' }) flash(ctx: Context) {
    ctx.html(200, 'flash.html');
  }
  @Get('visits') visits(ctx: Context) {
    const visits = Number(ctx.session.visits ?? 0) + 1;
    ctx.session.visits = visits;
    return { visits };
  }
  @SkipCsrf() @Post('webhook') webhook() {
    return { received: true };
  }
  @Get('locals') locals(ctx: Context) {
    ctx.html(200, 'locals.html', { shadowed: 'from the handler' });
  }
}

@ApiResource('api/notes')
class NoteApiController {
  index() {
    return [];
  }
  store(ctx: Context) {
    ctx.json(201, { stored: true });
  }
  show() {
    return {};
  }
  update() {
    return {};
  }
  destroy() {
    return {};
  }
  // A route of its own, beside the conventional five: exempt as they are.
  @Post(':id/archive') archive() {
    return { archived: true };
  }
}

function sessionModule(secret = SECRET) {
  @Module({
    imports: [SessionModule.forRoot({ secret: () => secret })],
    controllers: [NoteController, NoteApiController],
  })
  class SessionAppModule {}
  return SessionAppModule;
}

function requestId(_req: Request, res: Response, next: NextFunction) {
  res.locals.requestId = 'req-7';
  res.locals.shadowed = 'from res.locals';
  next();
}

/** A browser's session: its cookie, and the token its form page carries. */
async function formSession(url: string) {
  const agent = request.agent(url);
  const page = await agent.get('/notes/create');
  const token = /name="_csrf" value="([0-9a-f]+)"/.exec(page.text)?.[1];
  if (!token) throw new Error(`no _csrf field in the form page: ${page.text}`);
  return { agent, token };
}

describe('sessions, CSRF and flash', () => {
  const served = useServedApp(sessionModule(), { views: VIEWS }, (app) => {
    app.express.locals.appName = 'notes';
    // Also set by the requestId middleware on res.locals, which must win.
    app.express.locals.requestId = 'from app.locals';
    app.express.set('trust proxy', true);
    app.use(requestId);
  });
  const url = (): string => served().url;
  beforeEach(() => {
    stored.length = 0;
  });

  test('ctx.session persists across the requests of one client, not another', async () => {
    const agent = request.agent(url());
    expect((await agent.get('/notes/visits')).body).toEqual({ visits: 1 });
    expect((await agent.get('/notes/visits')).body).toEqual({ visits: 2 });
    expect((await request(url()).get('/notes/visits')).body).toEqual({ visits: 1 });
  });

  test('the cookie is HttpOnly and SameSite=Lax, and not Secure over plain HTTP', async () => {
    const res = await request(url()).get('/notes/visits');
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((line) =>
      line.startsWith('keel.session='),
    );
    expect(cookie).toMatch(/; httponly/i);
    expect(cookie).toMatch(/; samesite=lax/i);
    expect(cookie).not.toMatch(/; secure/i);
  });

  test('the cookie is Secure when a trusted proxy says the request came over HTTPS', async () => {
    const res = await request(url()).get('/notes/visits').set('X-Forwarded-Proto', 'https');
    const cookies = res.headers['set-cookie'] as unknown as string[];
    const sessionCookies = cookies.filter((line) => line.startsWith('keel.session'));
    expect(sessionCookies.length).toBeGreaterThan(0);
    for (const line of sessionCookies) expect(line).toMatch(/; secure/i);
  });

  test('a form with its session token is accepted, and its flash message shows once', async () => {
    const { agent, token } = await formSession(url());
    const posted = await agent.post('/notes').type('form').send({ _csrf: token, text: 'milk' });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/notes/flash');
    expect((await agent.get('/notes/flash')).text).toContain('Note 1 created');
    expect((await agent.get('/notes/flash')).text).toContain('no message');
    expect(stored).toEqual(['milk']);
  });

  test('the token is accepted in the X-CSRF-Token header too', async () => {
    const { agent, token } = await formSession(url());
    const posted = await agent.post('/notes').set('X-CSRF-Token', token).send({ text: 'eggs' });
    expect(posted.status).toBe(303);
    expect(stored).toEqual(['eggs']);
  });

  test.each([
    ['without a token', async () => ({ ...(await formSession(url())), sent: undefined })],
    ['with a wrong token', async () => ({ ...(await formSession(url())), sent: 'f'.repeat(64) })],
    [
      "with another session's token",
      async () => {
        const mine = await formSession(url());
        const theirs = await formSession(url());
        return { agent: mine.agent, token: mine.token, sent: theirs.token };
      },
    ],
  ])('a form posted %s is 403 and the handler never runs', async (_case, prepare) => {
    const { agent, sent } = await prepare();
    const res = await agent
      .post('/notes')
      .type('form')
      .send(sent === undefined ? { text: 'x' } : { _csrf: sent, text: 'x' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'invalid CSRF token' });
    expect(stored).toEqual([]);
  });

  test('a browser refused for its token gets the 403 page', async () => {
    const res = await request(url())
      .post('/notes')
      .set('Accept', BROWSER_ACCEPT)
      .type('form')
      .send({ text: 'x' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('<h1>Forbidden</h1>');
    expect(res.text).toContain('invalid CSRF token');
  });

  test('an @ApiResource controller (its own routes too) and a @SkipCsrf() route take POST without a token', async () => {
    const api = await request(url()).post('/api/notes').send({ text: 'from a script' });
    const archived = await request(url()).post('/api/notes/3/archive').send({});
    const webhook = await request(url()).post('/notes/webhook').send({ event: 'paid' });
    expect([api.status, archived.status, webhook.status]).toEqual([201, 201, 201]);
  });

  test('templates see data over res.locals over app.locals', async () => {
    const res = await request(url()).get('/notes/locals');
    expect(res.text).toContain('<p class="app">notes</p>');
    expect(res.text).toContain('<p class="request">req-7</p>');
    expect(res.text).toContain('<p class="shadowed">from the handler</p>');
    // Express keeps its settings in app.locals, for its own renderer: keel's pages do not show them.
    expect(res.text).toContain('<p class="settings">undefined</p>');
  });
});

test("two instances with the same secret read each other's sessions", async () => {
  const first = await bootApp(sessionModule(), { views: VIEWS });
  const second = await bootApp(sessionModule(), { views: VIEWS });
  const [a, b] = [await first.listen(0, '127.0.0.1'), await second.listen(0, '127.0.0.1')];
  try {
    const { agent, token } = await formSession(a.url);
    await agent.post('/notes').type('form').send({ _csrf: token, text: 'shared' });
    const cookie = (
      await agent.jar.getCookies({ domain: '127.0.0.1', path: '/', secure: false, script: false })
    )
      .map((entry) => `${entry.name}=${entry.value}`)
      .join('; ');
    const onSecond = await request(b.url).get('/notes/flash').set('Cookie', cookie);
    expect(onSecond.text).toContain('Note 1 created');
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});

test('a session cookie signed with another secret is not read', async () => {
  const first = await bootApp(sessionModule(), { views: VIEWS });
  const other = await bootApp(sessionModule('another-secret-entirely'), { views: VIEWS });
  const [a, b] = [await first.listen(0, '127.0.0.1'), await other.listen(0, '127.0.0.1')];
  try {
    const visit = await request(a.url).get('/notes/visits');
    const cookie = (visit.headers['set-cookie'] as unknown as string[])
      .map((line) => line.split(';')[0])
      .join('; ');
    expect((await request(b.url).get('/notes/visits').set('Cookie', cookie)).body).toEqual({ visits: 1 });
  } finally {
    await Promise.all([first.close(), other.close()]);
  }
});

test('an empty session secret stops the boot, saying how to fix it', async () => {
  await expect(bootApp(sessionModule(''))).rejects.toThrow(/E_INVALID_SESSION_SECRET[\s\S]*Fix:/);
});

test('ctx.session without SessionModule is a 500 that names the fix in the log', async () => {
  @Controller('x')
  class NoSessionController {
    @Get() index(ctx: Context) {
      return { visits: ctx.session.visits };
    }
  }
  @Module({ controllers: [NoSessionController] })
  class NoSessionModule {}
  const logged: unknown[] = [];
  const app = await bootApp(NoSessionModule, {
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: (details) => logged.push(details),
    },
  });
  const { url } = await app.listen(0, '127.0.0.1');
  try {
    const res = await request(url).get('/x');
    expect(res.status).toBe(500);
    const messages = logged.map((entry) => ((entry as { err?: Error }).err ?? new Error('')).message);
    const message = messages.find((text) => text.includes('E_NO_SESSION')) ?? messages.join('\n');
    expect(message).toContain('E_NO_SESSION');
    expect(message).toContain('Fix: import SessionModule.forRoot');
  } finally {
    await app.close();
  }
});
