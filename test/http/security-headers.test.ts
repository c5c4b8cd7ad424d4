import { describe, expect, test } from '@jest/globals';
import { Controller, Get, type Context } from 'keel';
import { bootApp, moduleWith, useServedApp } from '../factories/app';

// helmet's defaults, as helmet 8 writes them, less the two keel decides per answer: those every
// answer carries, and those only documents do.
const EVERY_ANSWER = {
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};
const DOCUMENT_ONLY = {
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const DOCUMENT = { ...EVERY_ANSWER, ...DOCUMENT_ONLY };

/** The headers of an answer that helmet would set, by name, the policy and HSTS aside. */
function securityHeaders(res: Response): Record<string, string> {
  const names = Object.keys(DOCUMENT);
  return Object.fromEntries([...res.headers].filter(([name]) => names.includes(name)));
}

const POLICY = 'content-security-policy';
const HSTS = 'strict-transport-security';

@Controller('pages')
class PageController {
  @Get('scripts') scripts(ctx: Context) {
    ctx.html(200, 'csp/scripts.html');
  }

  // A page written without a template, through Express's helper.
  @Get('sent') sent(ctx: Context) {
    ctx.res.type('html').send('<!doctype html><p>sent by hand</p>');
  }

  @Get('data') data() {
    return { plain: 'json' };
  }

  @Get('image') image(ctx: Context) {
    ctx.res.type('svg').send('<svg xmlns="http://www.w3.org/2000/svg"/>');
  }

  // A page written straight to Node's response, its header named in its own case.
  @Get('raw') raw(ctx: Context) {
    ctx.res.writeHead(200, { 'Content-Type': 'text/html', 'X-Frame-Options': 'DENY' });
    ctx.res.end('<!doctype html><p>raw</p>');
  }

  @Get('framed') framed(ctx: Context) {
    ctx.header('X-Frame-Options', 'DENY');
    ctx.header('Referrer-Policy', 'same-origin');
    ctx.html(200, 'csp/scripts.html');
  }
}

/** The nonce the page printed, and the one its policy allows. */
async function nonces(res: Response): Promise<{ printed: string | undefined; allowed: string | undefined }> {
  const page = await res.text();
  const policy = res.headers.get('content-security-policy') ?? '';
  return {
    printed: /<p id="nonce">([^<]*)<\/p>/.exec(page)?.[1],
    allowed: /script-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1],
  };
}

describe('security headers, by default', () => {
  const served = useServedApp(moduleWith({ controllers: [PageController] }));

  test('a JSON answer carries nosniff and Cross-Origin-Resource-Policy, no document header, no policy and, over HTTP, no HSTS', async () => {
    const res = await fetch(`${served().url}/pages/data`);
    expect(res.status).toBe(200);
    expect(securityHeaders(res)).toEqual(EVERY_ANSWER);
    expect(res.headers.get(POLICY)).toBeNull();
    expect(res.headers.get(HSTS)).toBeNull();
  });

  test('an error answer carries them too', async () => {
    const res = await fetch(`${served().url}/nowhere`);
    expect(res.status).toBe(404);
    expect(securityHeaders(res)).toEqual(EVERY_ANSWER);
  });

  test('a page carries every header of helmet’s, the document headers with the policy', async () => {
    const res = await fetch(`${served().url}/pages/scripts`);
    expect(res.status).toBe(200);
    expect(securityHeaders(res)).toEqual(DOCUMENT);
    expect(res.headers.get(POLICY)).toMatch(/^default-src 'self';/);
  });

  test.each([
    ['a page written through Express’s res.send', 'sent'],
    ['an SVG image, a document whose scripts a browser runs', 'image'],
  ])('%s carries them too', async (_, path) => {
    const res = await fetch(`${served().url}/pages/${path}`);
    expect(res.status).toBe(200);
    expect(securityHeaders(res)).toEqual(DOCUMENT);
    expect(res.headers.get(POLICY)).toMatch(/^default-src 'self';/);
  });

  test('a document header the page set itself, held or given to writeHead in any case, keeps its value', async () => {
    const framed = await fetch(`${served().url}/pages/framed`);
    expect(securityHeaders(framed)).toEqual({
      ...DOCUMENT,
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
    });
    const raw = await fetch(`${served().url}/pages/raw`);
    expect(raw.headers.get('content-type')).toBe('text/html');
    expect(securityHeaders(raw)).toEqual({ ...DOCUMENT, 'x-frame-options': 'DENY' });
    expect(raw.headers.get(POLICY)).toMatch(/^default-src 'self';/);
  });

  test('a page gets helmet’s policy with a nonce of its own in script-src, which the template printed', async () => {
    const first = await fetch(`${served().url}/pages/scripts`);
    const policy = first.headers.get('content-security-policy');
    const { printed, allowed } = await nonces(first);
    expect(printed).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(allowed).toBe(printed);
    expect(policy).toBe(
      "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';" +
        "frame-ancestors 'self';img-src 'self' data:;object-src 'none';" +
        `script-src 'self' 'nonce-${printed}';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'`,
    );
    const second = await nonces(await fetch(`${served().url}/pages/scripts`));
    expect(second.printed).not.toBe(printed);
    expect(second.allowed).toBe(second.printed);
  });

  test('a page written through Express’s res.send gets the policy too', async () => {
    const res = await fetch(`${served().url}/pages/sent`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(
      /^default-src 'self';.*script-src 'self' 'nonce-/,
    );
  });

  test('over plain HTTP, a client’s X-Forwarded-Proto is not believed without trust proxy', async () => {
    const res = await fetch(`${served().url}/pages/scripts`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
  });
});

describe('security headers behind a proxy that says HTTPS', () => {
  const served = useServedApp(moduleWith({ controllers: [PageController] }), {}, (app) => {
    app.express.set('trust proxy', 'loopback');
  });

  test('X-Forwarded-Proto: https from a trusted proxy adds HSTS and upgrade-insecure-requests', async () => {
    const res = await fetch(`${served().url}/pages/scripts`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('content-security-policy')).toMatch(/;upgrade-insecure-requests$/);
    const json = await fetch(`${served().url}/pages/data`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(json.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  test('X-Forwarded-Proto: http gets neither', async () => {
    const res = await fetch(`${served().url}/pages/scripts`, { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
  });
});

describe('securityHeaders: false', () => {
  const served = useServedApp(moduleWith({ controllers: [PageController] }), { securityHeaders: false });

  test('no answer carries them, and templates get no nonce', async () => {
    const json = await fetch(`${served().url}/pages/data`);
    expect(securityHeaders(json)).toEqual({});
    const page = await fetch(`${served().url}/pages/scripts`);
    expect(securityHeaders(page)).toEqual({});
    expect((await nonces(page)).printed).toBe('');
  });
});

describe("securityHeaders with helmet's options", () => {
  const served = useServedApp(moduleWith({ controllers: [PageController] }), {
    securityHeaders: {
      referrerPolicy: { policy: 'same-origin' },
      xFrameOptions: false,
      contentSecurityPolicy: {
        directives: {
          imgSrc: ["'self'", 'https://images.example'],
          scriptSrc: ["'self'", 'https://cdn.example'],
        },
      },
    },
  });

  test('tune the headers, and the nonce joins the script-src they give', async () => {
    const res = await fetch(`${served().url}/pages/scripts`);
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("img-src 'self' https://images.example;");
    const { printed } = await nonces(res);
    expect(policy).toContain(`script-src 'self' https://cdn.example 'nonce-${printed}';`);
  });
});

describe('a securityHeaders option of the wrong kind', () => {
  test.each([
    [{ referrerPolicy: { policy: 'nope' } }, 'securityHeaders'],
    [{ contentSecurityPolicy: { directives: { scriptSrc: [() => "'self'"] } } }, 'directives.scriptSrc'],
    ['on', 'securityHeaders'],
  ])('%p is a boot error naming %s', async (securityHeaders, option) => {
    await expect(
      bootApp(moduleWith({ controllers: [PageController] }), { securityHeaders: securityHeaders as never }),
    ).rejects.toThrow(
      expect.objectContaining({ code: 'E_INVALID_OPTION', message: expect.stringContaining(option) }),
    );
  });
});
