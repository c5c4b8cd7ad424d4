import { afterAll, beforeAll } from '@jest/globals';
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser, type Page, type Response } from 'playwright-core';

/** Where the suite looks for Chromium unless `CHROMIUM_PATH` names another binary. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** The size every page is rendered at, so screenshots are the same from run to run. */
export const VIEWPORT = { width: 1000, height: 700 } as const;

// Without the background-networking flags Chromium keeps calling home at start, and on a closed
// network its own connections are refused; the sandbox needs user namespaces a container lacks.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Why the browser tests cannot run here (no Chromium at `CHROMIUM_PATH` or /usr/bin/chromium), or
 * undefined when they can.
 */
export function chromiumMissing(): string | undefined {
  const executable = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
  try {
    accessSync(executable, constants.X_OK);
    return undefined;
  } catch {
    return (
      `no Chromium at ${executable}. On Debian or Ubuntu: ` +
      '`apt-get install -y --no-install-recommends chromium`; elsewhere set CHROMIUM_PATH to a ' +
      'Chromium or Chrome binary'
    );
  }
}

/**
 * Whether a missing Chromium fails the run rather than skipping the browser tests: CI sets
 * `KEEL_REQUIRE_BROWSER=1` after installing it, so there a broken set-up can never pass unnoticed.
 */
export function isBrowserRequired(): boolean {
  return process.env.KEEL_REQUIRE_BROWSER === '1';
}

/** The Chromium binary the browser tests drive; throws, saying how to install one, when there is none. */
export function chromiumPath(): string {
  const missing = chromiumMissing();
  if (missing) throw new Error(`${missing}: the browser tests need one`);
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
}

/** Headless Chromium with a temporary profile of its own; close it with `browser.close()`. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}

/** A page in a fresh context (no cookies or cache shared with other pages) at the fixed viewport. */
export async function openPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORT, deviceScaleFactor: 1 });
  return context.newPage();
}

/**
 * Runs `action` (a click that follows a link or submits a form) and resolves with the response of
 * the document it led to, once that page has loaded; redirects on the way are in its request chain.
 */
export async function navigationBy(page: Page, action: () => Promise<void>): Promise<Response> {
  // Both waits start before the click: the next `load` is the new document's, never the old one's.
  const [response] = await Promise.all([
    page.waitForResponse(
      (res) =>
        res.request().isNavigationRequest() &&
        res.frame() === page.mainFrame() &&
        (res.status() < 300 || res.status() >= 400),
    ),
    page.waitForEvent('load'),
    action(),
  ]);
  return response;
}

/** One hop of a navigation: what was asked for and how the server answered. */
export interface Hop {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly location?: string;
}

/** The hops that led to `response`, first request first (a form's POST, its 303, then the GET). */
export async function hopsTo(response: Response): Promise<Hop[]> {
  const hops: Hop[] = [];
  for (let request = response.request().redirectedFrom(); request; request = request.redirectedFrom()) {
    const answer = await request.response();
    hops.unshift({
      method: request.method(),
      path: new URL(request.url()).pathname,
      status: answer?.status() ?? 0,
      location: answer?.headers().location,
    });
  }
  const request = response.request();
  hops.push({ method: request.method(), path: new URL(request.url()).pathname, status: response.status() });
  return hops;
}

/**
 * Registers a `beforeAll` that launches headless Chromium and an `afterAll` that closes it; returns
 * a getter for the browser the tests of a file share.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium did not start: see the beforeAll error');
    return browser;
  };
}
