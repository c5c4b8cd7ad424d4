import { describe, expect, test } from '@jest/globals';
import { chromiumMissing, isBrowserRequired, openPage, useBrowser } from '../factories/browser';
import { watchComplaints } from '../factories/page-watch';
import { useSample } from '../factories/sample';
import { isPostgresServer, postgresUrl } from '../factories/test-databases';

// The sample's pages and its Swagger UI page under keel's default Content-Security-Policy, in
// headless Chromium: each page is sent with the policy, and nothing on it is blocked.

const skipReason = isBrowserRequired() ? undefined : chromiumMissing();
const title = `the sample's pages under the Content-Security-Policy${skipReason ? ` (skipped: ${skipReason})` : ''}`;

(skipReason ? describe.skip : describe)(title, () => {
  const sample = useSample(isPostgresServer() ? { scratchOn: postgresUrl() } : { embedded: true });
  const browser = useBrowser();

  test.each(['/', '/orders', '/orders/create', '/orders/999999', '/orders/live'])(
    '%s is sent with the policy and runs without a violation',
    async (path) => {
      const page = await openPage(browser(), sample().url);
      const complaints = await watchComplaints(page);
      const res = await page.goto(path);
      expect(res?.headers()['content-security-policy']).toContain("script-src 'self' 'nonce-");
      expect(await page.locator('header a').count()).toBeGreaterThan(0);
      expect(await complaints.violations()).toEqual([]);
      expect(complaints.consoleErrors.filter((text) => /Content.Security.Policy/i.test(text))).toEqual([]);
    },
    30_000,
  );

  test('/docs draws Swagger UI with the policy on, with no violation and no console error', async () => {
    const page = await openPage(browser(), sample().url);
    const complaints = await watchComplaints(page);
    const res = await page.goto('/docs');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self' 'nonce-");
    await page.locator('.opblock-summary').first().waitFor({ timeout: 20_000 });
    expect(await complaints.violations()).toEqual([]);
    expect(complaints.consoleErrors).toEqual([]);
  }, 60_000);
});
