import { describe, expect, test } from '@jest/globals';
import { Controller, Get, type Context } from 'keel';
import { moduleWith, useServedApp } from '../factories/app';
import { chromiumMissing, isBrowserRequired, openPage, useBrowser } from '../factories/browser';
import { watchComplaints } from '../factories/page-watch';

// A page with two inline scripts, one carrying the template's nonce, in headless Chromium: the
// browser enforces the Content-Security-Policy keel sent.

@Controller('pages')
class PageController {
  @Get('scripts') scripts(ctx: Context) {
    ctx.html(200, 'csp/scripts.html');
  }
}

const skipReason = isBrowserRequired() ? undefined : chromiumMissing();
const title = `the Content-Security-Policy in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`;

(skipReason ? describe.skip : describe)(title, () => {
  const withHeaders = useServedApp(moduleWith({ controllers: [PageController] }));
  const without = useServedApp(moduleWith({ controllers: [PageController] }), { securityHeaders: false });
  const browser = useBrowser();

  async function visit(url: string) {
    const page = await openPage(browser(), url);
    const complaints = await watchComplaints(page);
    await page.goto('/pages/scripts');
    const ran = await page.evaluate(() => {
      const { document } = globalThis as unknown as { document: { body: { dataset: object } } };
      return { ...document.body.dataset };
    });
    return { ran, complaints, violations: await complaints.violations() };
  }

  test('the inline script with the nonce runs; the one without is blocked, and the browser says so', async () => {
    const { ran, complaints, violations } = await visit(withHeaders().url);
    expect(ran).toEqual({ withNonce: 'ran' });
    expect(violations).toEqual(['script-src-elem inline']);
    expect(complaints.consoleErrors).toEqual([
      expect.stringContaining(
        "Executing inline script violates the following Content Security Policy directive 'script-src 'self' 'nonce-",
      ),
    ]);
  }, 30_000);

  test('with securityHeaders: false both run, with no complaint', async () => {
    const { ran, complaints, violations } = await visit(without().url);
    expect(ran).toEqual({ withNonce: 'ran', withoutNonce: 'ran' });
    expect(violations).toEqual([]);
    expect(complaints.consoleErrors).toEqual([]);
  }, 30_000);
});
