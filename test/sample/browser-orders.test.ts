import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import {
  VIEWPORT,
  chromiumMissing,
  hopsTo,
  isBrowserRequired,
  launchBrowser,
  navigationBy,
  openPage,
} from '../factories/browser';
import {
  startSample,
  waitUntilReady,
  type RunningSample,
  type SampleDatabase,
  SAMPLE_OPERATOR,
  sampleAuthorization,
} from '../factories/sample';
import { describeNeeding } from '../factories/requirements';
import { postgresServerMissing, postgresUrl } from '../factories/test-databases';
import { killRunningApps } from '../factories/child-app';

// A visitor's whole visit, in headless Chromium, against the compiled sample in its own process:
// once on its embedded database and once on a database of its own on the PostgreSQL server.

/** `KEEL_UPDATE_SCREENSHOT=1` rewrites the picture in sample/README.md; otherwise it goes to a temporary directory. */
const SCREENSHOT_IN_DOCS = process.env.KEEL_UPDATE_SCREENSHOT === '1';
const DOCS_SCREENSHOT = path.join(__dirname, '..', '..', 'docs', 'orders-index.png');

const SEEDED_ORDERS = [
  { customer: 'Ada Lovelace', product: 'Brass lamp', quantity: 2 },
  { customer: 'Grace Hopper', product: 'Walnut desk', quantity: 1 },
  { customer: 'Alan Turing', product: 'Chess set', quantity: 3 },
  { customer: 'Katherine Johnson', product: 'Slide rule', quantity: 5 },
  { customer: 'Edsger Dijkstra', product: 'Fountain pen', quantity: 12 },
  { customer: 'Barbara Liskov', product: 'Oak bookshelf', quantity: 1 },
  { customer: 'Donald Knuth', product: 'Pipe organ', quantity: 1 },
  { customer: 'Margaret Hamilton', product: 'Binder clips', quantity: 40 },
  { customer: 'John Backus', product: 'Punch cards', quantity: 500 },
  { customer: 'Frances Allen', product: 'Desk lamp', quantity: 2 },
  { customer: 'Niklaus Wirth', product: 'Pascal triangle poster', quantity: 1 },
  { customer: 'Radia Perlman', product: 'Network cable', quantity: 8 },
];

/** The index shows this many orders a page; the seed fills one and spills onto a second. */
const PAGE_SIZE = 10;

interface SampleDatabaseCase {
  readonly name: string;
  /** Why the case cannot run on this machine, or undefined when it can. */
  readonly skipReason?: string;
  /** True for the one case whose screenshot may replace sample/README.md's picture. */
  readonly isScreenshotSource: boolean;
  readonly database: SampleDatabase;
}

const DATABASES: SampleDatabaseCase[] = [
  {
    name: 'the embedded database',
    isScreenshotSource: true,
    database: { embedded: true },
  },
  {
    name: 'PostgreSQL',
    skipReason: postgresServerMissing(),
    isScreenshotSource: false,
    database: { scratchOn: postgresUrl() },
  },
];

// Without Chromium the visit is skipped, saying why, unless the run requires it (CI does): there
// the tests run and fail with how to install it.
const browserSkipReason = isBrowserRequired() ? undefined : chromiumMissing();

for (const database of DATABASES) {
  const title = `the orders pages in Chromium, on ${database.name}`;
  // A missing browser skips unless required (above); a missing server, unless KEEL_REQUIRE_SERVICES.
  const describeHere = browserSkipReason
    ? (name: string, body: () => void) => describe.skip(`${name} (skipped: ${browserSkipReason})`, body)
    : (name: string, body: () => void) => describeNeeding(database.skipReason, name, body);
  describeHere(title, () => {
    let sample: RunningSample;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      // The browser first: without Chromium the tests fail before a sample has been started.
      browser = await launchBrowser();
      sample = await startSample(database.database);
      page = await openPage(browser, sample.url);
      await waitUntilReady(sample.url);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await sample?.stop();
      killRunningApps();
    }, 30_000);

    test('a visitor creates an order (422, then 303), edits it, deletes it, and the index no longer lists it', async () => {
      await page.goto('/');
      const orders = await navigationBy(page, () =>
        page.getByRole('link', { name: 'Browse the orders' }).click(),
      );
      expect(orders.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/orders');
      expect(await page.getByText('No orders yet.').isVisible()).toBe(true);

      await navigationBy(page, () => page.getByRole('link', { name: 'New order', exact: true }).click());
      // The form is the operator's: the visitor logs in, and comes back to it.
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await hopsTo(await logIn(page))).toEqual([
        { method: 'POST', path: '/login', status: 303, location: '/orders/create' },
        { method: 'GET', path: '/orders/create', status: 200 },
      ]);
      await page.getByLabel('Customer').fill('Ada Lovelace');
      await page.getByLabel('Product').fill('Brass lamp');
      await page.getByLabel('Quantity').fill('0');
      const rejected = await navigationBy(page, () =>
        page.getByRole('button', { name: 'Create order' }).click(),
      );
      expect(await hopsTo(rejected)).toEqual([{ method: 'POST', path: '/orders', status: 422 }]);
      expect(await page.getByRole('alert').allTextContents()).toEqual(['quantity must be at least 1']);
      expect(await page.getByLabel('Customer').inputValue()).toBe('Ada Lovelace');

      await page.getByLabel('Quantity').fill('2');
      const created = await navigationBy(page, () =>
        page.getByRole('button', { name: 'Create order' }).click(),
      );
      const [post, shown] = await hopsTo(created);
      expect(post).toEqual({
        method: 'POST',
        path: '/orders',
        status: 303,
        location: expect.stringMatching(/^\/orders\/\d+$/),
      });
      expect(shown).toEqual({ method: 'GET', path: post.location, status: 200 });
      const id = post.location?.split('/').pop() as string;
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Order ${id}`);
      await expectFlashOnceOnly(page, `Order ${id} created`);
      expect(await detailsOf(page)).toMatchObject({
        Customer: 'Ada Lovelace',
        Product: 'Brass lamp',
        Quantity: '2',
      });

      await navigationBy(page, () => page.getByRole('link', { name: 'Edit' }).click());
      await page.getByLabel('Product').fill('Copper lamp');
      await page.getByLabel('Quantity').fill('7');
      const saved = await navigationBy(page, () => page.getByRole('button', { name: 'Save order' }).click());
      expect(await hopsTo(saved)).toEqual([
        { method: 'POST', path: `/orders/${id}`, status: 303, location: `/orders/${id}` },
        { method: 'GET', path: `/orders/${id}`, status: 200 },
      ]);
      expect(await detailsOf(page)).toMatchObject({
        Customer: 'Ada Lovelace',
        Product: 'Copper lamp',
        Quantity: '7',
      });
      await expectFlashOnceOnly(page, `Order ${id} updated`);

      const deleted = await navigationBy(page, () => page.getByRole('button', { name: 'Delete' }).click());
      expect(await hopsTo(deleted)).toEqual([
        { method: 'POST', path: `/orders/${id}`, status: 303, location: '/orders' },
        { method: 'GET', path: '/orders', status: 200 },
      ]);
      expect(await page.getByRole('link', { name: id, exact: true }).count()).toBe(0);
      expect(await page.getByText('No orders yet.').isVisible()).toBe(true);
      await expectFlashOnceOnly(page, `Order ${id} deleted`);
    }, 120_000);

    test('a page from another origin that posts to the sample is refused, and no order is stored', async () => {
      await page.goto('/login');
      await logIn(page); // the visitor has a session, logged in, and its token, with the sample
      const before = await orderCount(sample.url);
      const forger = await serveForgingPage(`${sample.url}/orders`);
      try {
        const refused = page.waitForResponse((res) => res.url() === `${sample.url}/orders`);
        await page.goto(forger.url);
        expect((await refused).status()).toBe(403);
        expect(await orderCount(sample.url)).toBe(before);
      } finally {
        await forger.close();
      }
    }, 60_000);

    test('the orders index with more than a page of orders renders as a PNG at the fixed viewport', async () => {
      for (const order of SEEDED_ORDERS) {
        const res = await fetch(`${sample.url}/api/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(await sampleAuthorization(sample.url)) },
          body: JSON.stringify(order),
        });
        expect(res.status).toBe(201);
      }
      await page.goto('/orders');
      expect(await page.locator('tbody tr').count()).toBe(PAGE_SIZE);
      expect(await page.getByRole('link', { name: 'Next' }).getAttribute('href')).toBe('/orders?page=2');

      const directory = await mkdtemp(path.join(os.tmpdir(), 'keel-screenshot-'));
      const file =
        SCREENSHOT_IN_DOCS && database.isScreenshotSource
          ? DOCS_SCREENSHOT
          : path.join(directory, 'orders.png');
      try {
        await page.screenshot({ path: file });
        expect(pngSize(await readFile(file))).toEqual(VIEWPORT);
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    }, 120_000);
  });
}

/** The flash message is on the page now, and gone once the page is loaded again. */
async function expectFlashOnceOnly(page: Page, message: string): Promise<void> {
  expect(await page.getByRole('status').allTextContents()).toEqual([message]);
  await page.reload();
  expect(await page.getByRole('status').count()).toBe(0);
}

/** Fills the login form the page shows with the operator's account and sends it; the answer it lands on. */
async function logIn(page: Page): Promise<Response> {
  await page.getByLabel('Email').fill(SAMPLE_OPERATOR.email);
  await page.getByLabel('Password').fill(SAMPLE_OPERATOR.password);
  return navigationBy(page, () => page.getByRole('button', { name: 'Log in' }).click());
}

async function orderCount(sampleUrl: string): Promise<number> {
  return ((await (await fetch(`${sampleUrl}/api/orders`)).json()) as { total: number }).total;
}

/**
 * A page on another origin of the same site (its own port of `localhost`, so that the browser sends
 * the session's `SameSite=Lax` cookie with the post, and only the CSRF token stops it) whose form
 * posts an order to `target` as soon as it loads.
 */
async function serveForgingPage(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const page = `<!doctype html><form method="post" action="${target}">
    <input name="customer" value="Mallory"><input name="product" value="Forged"><input name="quantity" value="1">
  </form><script>document.forms[0].submit()</script>`;
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  // Every loopback address, as `localhost` may resolve to either.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The show page's `<dl>` as `{ term: definition }`. */
async function detailsOf(page: Page): Promise<Record<string, string>> {
  const terms = await page.locator('dl > dt').allTextContents();
  const definitions = await page.locator('dl > dd').allTextContents();
  return Object.fromEntries(terms.map((term, i) => [term, definitions[i]]));
}

/** The width and height a PNG's header declares; throws when `bytes` is not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature)) throw new Error('not a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
