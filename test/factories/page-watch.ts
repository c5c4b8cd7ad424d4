import type { Page } from 'playwright-core';

/** What a page complained of: console errors and Content-Security-Policy violations. */
export interface PageComplaints {
  readonly consoleErrors: string[];
  /** `securitypolicyviolation` events, as `directive blocked-uri`, in the page's last document. */
  violations(): Promise<string[]>;
}

// The little of the browser's window the recording script touches (the suite compiles without the DOM's types).
interface BrowserWindow {
  cspViolations: string[];
  readonly document: {
    addEventListener(
      type: 'securitypolicyviolation',
      listener: (event: { effectiveDirective: string; blockedURI: string }) => void,
    ): void;
  };
}

/**
 * Watches `page` from its next document on: every console error, and every `securitypolicyviolation`
 * event the document sees (recorded by a script that runs before the page's own).
 */
export async function watchComplaints(page: Page): Promise<PageComplaints> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.addInitScript(() => {
    const seen: string[] = [];
    const browserWindow = globalThis as unknown as BrowserWindow;
    browserWindow.cspViolations = seen;
    browserWindow.document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`);
    });
  });
  return {
    consoleErrors,
    violations: () => page.evaluate(() => [...(globalThis as unknown as BrowserWindow).cspViolations]),
  };
}
