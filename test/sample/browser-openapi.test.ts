import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { VIEWPORT, chromiumMissing, isBrowserRequired, launchBrowser, openPage } from '../factories/browser';
import { useSample } from '../factories/sample';
import { isPostgresServer, postgresUrl } from '../factories/test-databases';

// The sample's /docs page in headless Chromium with every request to another host refused: Swagger
// UI must come from the application itself.

/** `KEEL_UPDATE_SCREENSHOT=1` rewrites the picture in docs/guides/openapi.md; otherwise it goes to a temporary directory. */
const SCREENSHOT_IN_DOCS = process.env.KEEL_UPDATE_SCREENSHOT === '1';
const DOCS_SCREENSHOT = path.join(__dirname, '..', '..', 'docs', 'openapi-docs.png');

const skipReason = isBrowserRequired() ? undefined : chromiumMissing();
const title = `the sample's /docs in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`;

(skipReason ? describe.skip : describe)(title, () => {
  const sample = useSample(isPostgresServer() ? { scratchOn: postgresUrl() } : { embedded: true });
  let browser: Browser;
  let page: Page;
  const refused: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await openPage(browser, sample().url);
    const host = new URL(sample().url).host;
    await page.context().route('**/*', async (route) => {
      if (new URL(route.request().url()).host === host) return route.continue();
      refused.push(route.request().url());
      return route.abort('blockedbyclient');
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  test('renders every operation of the document, with nothing asked of another host', async () => {
    await page.goto('/docs');
    const summaries = page.locator('.opblock-summary');
    await summaries.first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.info .title').first().textContent()).toContain('Orders');
    const operations = await summaries.evaluateAll((nodes) =>
      nodes.map((node) =>
        [
          node.querySelector('.opblock-summary-method')?.textContent,
          node.querySelector('.opblock-summary-path')?.getAttribute('data-path'),
        ].join(' '),
      ),
    );
    expect(operations).toEqual([
      'GET /health',
      'GET /health/ready',
      'GET /api/orders',
      'POST /api/orders',
      'GET /api/orders/{id}',
      'PUT /api/orders/{id}',
      'PATCH /api/orders/{id}',
      'DELETE /api/orders/{id}',
    ]);
    expect(refused).toEqual([]);
  }, 60_000);

  test('an operation opens on its request body and answers, drawn as a PNG', async () => {
    await page.goto('/docs');
    // The only POST: the store action.
    const store = page.locator('.opblock.opblock-post');
    await store.locator('.opblock-summary').click();
    const opened = store.locator('.opblock-body');
    await opened.waitFor({ timeout: 20_000 });
    expect(await opened.locator('.response .response-col_status').allTextContents()).toEqual(
      expect.arrayContaining(['201', '400', '415', '422']),
    );

    const directory = await mkdtemp(path.join(os.tmpdir(), 'keel-screenshot-'));
    const file = SCREENSHOT_IN_DOCS ? DOCS_SCREENSHOT : path.join(directory, 'docs.png');
    try {
      await page.screenshot({ path: file });
      const bytes = await readFile(file);
      expect({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }).toEqual(VIEWPORT);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    expect(refused).toEqual([]);
  }, 60_000);
});
