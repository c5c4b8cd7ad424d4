import { describe, expect, test } from '@jest/globals';
import { Controller, Cors, Get, HttpError, Post, UseGuards, type CanActivate, type Context } from 'keel';
import type { Request } from 'express';
import { bootApp, moduleWith, useServedApp } from '../factories/app';

const ALLOWED = 'http://allowed.test';
const PARTNER = 'http://partner.test';
const STRANGER = 'http://stranger.test';

/** The `access-control-*` headers of an answer, by name. */
function corsHeaders(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-')));
}

function preflight(url: string, origin: string, method = 'PUT', headers?: string): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      ...(headers === undefined ? {} : { 'Access-Control-Request-Headers': headers }),
    },
  });
}

// Refuses every request: a preflight must be answered before it runs.
class Refuse implements CanActivate {
  canActivate(): boolean {
    throw new HttpError(401, 'sign in first');
  }
}

@Controller('orders')
class OrderController {
  @Get() list(ctx: Context) {
    ctx.header('X-Total', '2');
    return [{ id: 1 }, { id: 2 }];
  }

  @Post() @UseGuards(Refuse) store() {
    return { stored: true };
  }
}

@Cors({ origins: [PARTNER], maxAge: 60 })
@Controller('partner')
class PartnerController {
  @Get() show() {
    return { partner: true };
  }
}

@Cors(false)
@Controller('internal')
class InternalController {
  @Get() show() {
    return { internal: true };
  }
}

describe('option cors with origins, credentials, headers and maxAge', () => {
  const seen: string[] = [];
  const served = useServedApp(
    moduleWith({ controllers: [OrderController, PartnerController, InternalController] }),
    {
      cors: {
        origins: [ALLOWED, /^http:\/\/[a-z]+\.trusted\.test$/],
        credentials: true,
        headers: ['Content-Type', 'X-Tenant'],
        exposedHeaders: ['X-Total'],
        maxAge: 600,
      },
    },
    (app) =>
      app.use((req: Request, _res: unknown, next: () => void) => {
        seen.push(`${req.method} ${req.url}`);
        next();
      }),
  );

  test('an allowed origin gets its own origin back, credentials, the exposed headers and Vary: Origin', async () => {
    const res = await fetch(`${served().url}/orders`, { headers: { Origin: ALLOWED } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual({
      'access-control-allow-origin': ALLOWED,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'X-Total',
    });
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('x-total')).toBe('2');
  });

  test('an origin matching a pattern is allowed; one the pattern does not match whole is not', async () => {
    const matching = await fetch(`${served().url}/orders`, {
      headers: { Origin: 'http://shop.trusted.test' },
    });
    expect(matching.headers.get('access-control-allow-origin')).toBe('http://shop.trusted.test');
    const lookalike = await fetch(`${served().url}/orders`, {
      headers: { Origin: 'http://shop.trusted.test.evil.test' },
    });
    expect(corsHeaders(lookalike)).toEqual({});
  });

  test('an origin not allowed gets no CORS header at all, credentials included, and still Vary: Origin', async () => {
    const res = await fetch(`${served().url}/orders`, { headers: { Origin: STRANGER } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual({});
    expect(res.headers.get('vary')).toBe('Origin');
  });

  test('a request without Origin gets no CORS header, and Vary: Origin for caches', async () => {
    const res = await fetch(`${served().url}/orders`);
    expect(corsHeaders(res)).toEqual({});
    expect(res.headers.get('vary')).toBe('Origin');
  });

  test('a preflight is answered 204 with the allowed methods, headers and Access-Control-Max-Age', async () => {
    const res = await preflight(`${served().url}/orders`, ALLOWED, 'POST', 'content-type,x-tenant');
    expect(res.status).toBe(204);
    expect(corsHeaders(res)).toEqual({
      'access-control-allow-origin': ALLOWED,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'X-Total',
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': 'Content-Type,X-Tenant',
      'access-control-max-age': '600',
    });
    expect(res.headers.get('vary')).toBe('Origin');
    expect(await res.text()).toBe('');
  });

  test('a preflight reaches neither the application middleware nor the route guard that refuses everyone', async () => {
    seen.length = 0;
    const res = await preflight(`${served().url}/orders?page=2`, ALLOWED, 'POST');
    expect(res.status).toBe(204);
    expect(seen).toEqual([]);
    const real = await fetch(`${served().url}/orders`, { method: 'POST', headers: { Origin: ALLOWED } });
    expect(real.status).toBe(401);
    expect(real.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(seen).toEqual(['POST /orders']);
  });

  test('a preflight from an origin not allowed is 204 with no allow header', async () => {
    const res = await preflight(`${served().url}/orders`, STRANGER, 'POST', 'content-type');
    expect(res.status).toBe(204);
    expect(corsHeaders(res)).toEqual({});
  });

  test('error answers carry the CORS headers, so the calling script can read them', async () => {
    const res = await fetch(`${served().url}/nowhere`, { headers: { Origin: ALLOWED } });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  test("@Cors on a controller replaces the application's policy for its routes, preflights included", async () => {
    const partner = await fetch(`${served().url}/partner`, { headers: { Origin: PARTNER } });
    expect(corsHeaders(partner)).toEqual({ 'access-control-allow-origin': PARTNER });
    const notHere = await fetch(`${served().url}/partner`, { headers: { Origin: ALLOWED } });
    expect(corsHeaders(notHere)).toEqual({});
    const elsewhere = await fetch(`${served().url}/orders`, { headers: { Origin: PARTNER } });
    expect(corsHeaders(elsewhere)).toEqual({});
    const asked = await preflight(`${served().url}/partner`, PARTNER, 'GET', 'x-custom');
    expect(asked.status).toBe(204);
    expect(corsHeaders(asked)).toEqual({
      'access-control-allow-origin': PARTNER,
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': 'x-custom',
      'access-control-max-age': '60',
    });
  });

  test('@Cors(false) leaves a controller without CORS, even for an origin the application allows', async () => {
    const res = await fetch(`${served().url}/internal`, { headers: { Origin: ALLOWED } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual({});
  });
});

describe('option cors: true', () => {
  const served = useServedApp(moduleWith({ controllers: [OrderController] }), { cors: true });

  test('any origin is answered *, with no Vary: Origin', async () => {
    const res = await fetch(`${served().url}/orders`, { headers: { Origin: STRANGER } });
    expect(corsHeaders(res)).toEqual({ 'access-control-allow-origin': '*' });
    expect(res.headers.get('vary')).toBeNull();
  });

  test('a preflight allows the headers it asks for, and says the answer varies with them', async () => {
    const res = await preflight(`${served().url}/orders`, STRANGER, 'POST', 'content-type,authorization');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type,authorization');
    expect(res.headers.get('vary')).toBe('Access-Control-Request-Headers');
  });
});

describe('option cors with credentials and any origin', () => {
  const served = useServedApp(moduleWith({ controllers: [OrderController] }), {
    cors: { credentials: true },
  });

  test('the concrete origin is answered, never *', async () => {
    const res = await fetch(`${served().url}/orders`, { headers: { Origin: STRANGER } });
    expect(corsHeaders(res)).toEqual({
      'access-control-allow-origin': STRANGER,
      'access-control-allow-credentials': 'true',
    });
    expect(res.headers.get('vary')).toBe('Origin');
  });
});

describe('origins decided by a function', () => {
  const served = useServedApp(moduleWith({ controllers: [OrderController] }), {
    cors: { origins: (origin) => origin.endsWith('.example.test') },
  });

  test('the function decides each origin', async () => {
    const yes = await fetch(`${served().url}/orders`, { headers: { Origin: 'http://a.example.test' } });
    expect(yes.headers.get('access-control-allow-origin')).toBe('http://a.example.test');
    const no = await fetch(`${served().url}/orders`, { headers: { Origin: STRANGER } });
    expect(corsHeaders(no)).toEqual({});
  });
});

describe('without option cors', () => {
  const served = useServedApp(moduleWith({ controllers: [OrderController] }));

  test('no CORS header, and an OPTIONS request is answered 204 with Allow as before', async () => {
    const res = await fetch(`${served().url}/orders`, { headers: { Origin: ALLOWED } });
    expect(corsHeaders(res)).toEqual({});
    expect(res.headers.get('vary')).toBeNull();
    const asked = await preflight(`${served().url}/orders`, ALLOWED, 'POST');
    expect(asked.status).toBe(204);
    expect(asked.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(corsHeaders(asked)).toEqual({});
  });
});

describe('a cors option of the wrong kind', () => {
  test.each([
    [{ origins: [42] }, 'cors.origins'],
    [{ maxAge: -1 }, 'cors.maxAge'],
    [{ methods: ['GET POST'] }, 'cors.methods'],
    ['yes', 'cors'],
  ])('%j is a boot error naming %s', async (cors, option) => {
    await expect(
      bootApp(moduleWith({ controllers: [OrderController] }), { cors: cors as never }),
    ).rejects.toThrow(
      expect.objectContaining({ code: 'E_INVALID_OPTION', message: expect.stringContaining(option) }),
    );
  });
});
