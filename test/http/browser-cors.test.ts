import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Controller, Cors, Get, Put, type Context } from 'keel';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { moduleWith, useServedApp } from '../factories/app';
import { chromiumMissing, isBrowserRequired, launchBrowser, openPage } from '../factories/browser';

// Pages served on other ports (other origins) call the API with fetch in headless Chromium: the
// browser, not keel, decides whether the calling script may read the answer.

@Controller('orders')
class OrderController {
  @Get() list(ctx: Context) {
    ctx.header('X-Total', '1');
    return [{ id: 1, cookie: ctx.req.headers.cookie ?? null }];
  }

  @Put(':id') replace(ctx: Context) {
    return { id: ctx.param('id'), tenant: ctx.req.headers['x-tenant'] ?? null };
  }
}

@Cors({ origins: [] })
@Controller('closed')
class ClosedController {
  @Get() show() {
    return { closed: true };
  }
}

/** What a page's script saw of a fetch: the status and body it could read, or the error it got. */
type Outcome = { status: number; body: unknown; total: string | null } | { error: string };

async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>caller</title><p>a page on another origin</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** What the tests hand a page's fetch: plain data, as page.evaluate carries it. */
interface PlainInit {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly credentials?: 'include' | 'omit';
}

function fetchFrom(page: Page, url: string, init: PlainInit = {}): Promise<Outcome> {
  return page.evaluate(
    async ({ url: target, init: options }) => {
      try {
        const res = await fetch(target, options);
        return { status: res.status, body: (await res.json()) as unknown, total: res.headers.get('x-total') };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, init },
  );
}

const skipReason = isBrowserRequired() ? undefined : chromiumMissing();
const title = `CORS in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`;

(skipReason ? describe.skip : describe)(title, () => {
  let allowed: { server: Server; origin: string };
  let stranger: { server: Server; origin: string };
  let browser: Browser;
  // The API's origins are decided once both pages have their ports.
  const origins: string[] = [];
  const api = useServedApp(moduleWith({ controllers: [OrderController, ClosedController] }), {
    cors: {
      origins: (origin) => origins.includes(origin),
      credentials: true,
      headers: ['Content-Type', 'X-Tenant'],
      exposedHeaders: ['X-Total'],
    },
  });

  beforeAll(async () => {
    [allowed, stranger] = await Promise.all([pageServer(), pageServer()]);
    origins.push(allowed.origin);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    allowed?.server.close();
    stranger?.server.close();
  });

  async function pageOn(origin: string): Promise<Page> {
    const page = await openPage(browser, origin);
    await page.goto('/');
    return page;
  }

  test('a page on an allowed origin reads the answer and its exposed header', async () => {
    const page = await pageOn(allowed.origin);
    expect(await fetchFrom(page, `${api().url}/orders`)).toEqual({
      status: 200,
      body: [{ id: 1, cookie: null }],
      total: '1',
    });
  }, 30_000);

  test('a preflighted PUT with a custom header, and a request with credentials, succeed from it', async () => {
    const page = await pageOn(allowed.origin);
    const put = await fetchFrom(page, `${api().url}/orders/7`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-Tenant': 'acme' },
      body: '{}',
    });
    expect(put).toEqual({ status: 200, body: { id: '7', tenant: 'acme' }, total: null });
    await page.context().addCookies([{ name: 'seen', value: 'yes', url: api().url }]);
    const withCookie = await fetchFrom(page, `${api().url}/orders`, { credentials: 'include' });
    expect(withCookie).toEqual({ status: 200, body: [{ id: 1, cookie: 'seen=yes' }], total: '1' });
  }, 30_000);

  test('a page on an origin not allowed cannot read the answer, nor get a PUT through', async () => {
    const page = await pageOn(stranger.origin);
    expect(await fetchFrom(page, `${api().url}/orders`)).toEqual({
      error: expect.stringContaining('TypeError'),
    });
    const put = await fetchFrom(page, `${api().url}/orders/7`, {
      method: 'PUT',
      headers: { 'X-Tenant': 'acme' },
    });
    expect(put).toEqual({ error: expect.stringContaining('TypeError') });
  }, 30_000);

  test("a controller's own @Cors refuses the origin the application allows", async () => {
    const page = await pageOn(allowed.origin);
    expect(await fetchFrom(page, `${api().url}/closed`)).toEqual({
      error: expect.stringContaining('TypeError'),
    });
  }, 30_000);
});
