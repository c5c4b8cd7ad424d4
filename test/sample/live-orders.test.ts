import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { hostname } from 'node:os';
import { Client } from 'pg';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing, isBrowserRequired, launchBrowser, openPage } from '../factories/browser';
import { killRunningApps } from '../factories/child-app';
import { openEventStream } from '../factories/event-stream-client';
import { describeNeeding } from '../factories/requirements';
import {
  SAMPLE_ORDER,
  createSampleOrder,
  openOperatorSession,
  scratchDatabase,
  startSample,
  waitUntilReady,
  type RunningSample,
} from '../factories/sample';
import { postgresServerMissing, postgresUrl } from '../factories/test-databases';
import { connect } from '../realtime/ws-client';

// The sample's live list of new orders (its page, its event stream and its WebSocket) and the
// internal note every order keeps in the database, which no answer of the sample may show: the
// compiled sample in its own process, on a database of its own on the PostgreSQL server.

const NOTE_COLUMN = 'internalNote';

function createThroughApi(url: string, customer: string): Promise<Record<string, unknown>> {
  return createSampleOrder(url, { ...SAMPLE_ORDER, customer });
}

describeNeeding(postgresServerMissing(), 'the live orders and the internal note, on PostgreSQL', () => {
  let sample: RunningSample;
  let database: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    database = await scratchDatabase(postgresUrl());
    sample = await startSample({ url: database.url });
    await waitUntilReady(sample.url);
  }, 120_000);

  afterAll(async () => {
    await sample?.stop();
    killRunningApps();
    await database?.drop();
  }, 30_000);

  async function storedNote(id: unknown): Promise<string> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ internal_note: string }>(
        'SELECT internal_note FROM orders WHERE id = $1',
        [id],
      );
      return rows[0]?.internal_note ?? '(no row)';
    } finally {
      await client.end();
    }
  }

  test('the internal note is stored, and absent from the JSON answers, the HTML pages and the events', async () => {
    const stream = await openEventStream(`${sample.url}/orders/live/events`);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');

    const order = await createThroughApi(sample.url, 'Ada Lovelace');
    const note = await storedNote(order.id);
    expect(note).toBe('entered through the JSON API');

    // JSON: the answer to the write, the item and the list.
    expect(Object.keys(order)).not.toContain(NOTE_COLUMN);
    const item = await (await fetch(`${sample.url}/api/orders/${String(order.id)}`)).text();
    const list = await (await fetch(`${sample.url}/api/orders`)).text();
    for (const body of [item, list]) {
      expect(body).toContain('Ada Lovelace');
      expect(body).not.toContain(NOTE_COLUMN);
      expect(body).not.toContain(note);
    }

    // HTML: the pages that render orders (the edit form, to the logged-in operator).
    const operator = await openOperatorSession(sample.url);
    for (const path of [`/orders/${String(order.id)}`, '/orders', `/orders/${String(order.id)}/edit`]) {
      const page = await (await operator.get(path)).text();
      expect(page).toContain('Ada Lovelace');
      expect(page).not.toContain(note);
    }

    // Events: the order as the live list receives it.
    const text = await stream.waitFor('the order event', (seen) => seen.includes('Ada Lovelace'));
    const event = text.split('\n\n').find((frame) => frame.includes('Ada Lovelace')) ?? '';
    expect(event).toMatch(/^event: order\nid: \d+\ndata: \{/);
    const data = JSON.parse(event.split('data: ')[1] ?? '{}') as Record<string, unknown>;
    expect(data).toEqual({ ...order });
    expect(text).not.toContain(note);
    stream.leave();
  });

  test('a client that reconnects with Last-Event-ID gets every order stored after it, in order, none twice', async () => {
    const first = await openEventStream(`${sample.url}/orders/live/events`);
    await createThroughApi(sample.url, 'Grace Hopper');
    const seen = await first.waitFor('the first order', (text) => text.includes('Grace Hopper'));
    first.leave();
    const lastEventId = /^id: (\d+)$/m.exec(seen)?.[1] ?? '';
    // Stored while the client was away.
    await createThroughApi(sample.url, 'Alan Turing');
    await createThroughApi(sample.url, 'Katherine Johnson');
    const stream = await openEventStream(`${sample.url}/orders/live/events`, {
      'last-event-id': lastEventId,
    });
    const text = await stream.waitFor('the two later orders', (later) => later.includes('Katherine Johnson'));
    const customers = [...text.matchAll(/"customer":"([^"]+)"/g)].map(([, customer]) => customer);
    expect(customers).toEqual(['Alan Turing', 'Katherine Johnson']);
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map(([, id]) => Number(id));
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBeGreaterThan(Number(lastEventId));
    expect(ids[1]).toBeGreaterThan(ids[0] ?? 0);
    stream.leave();
  });

  test('a WebSocket to /orders/live/socket is told which replica serves it, then gets each new order as the event stream does, under the same id', async () => {
    const socket = await connect(`${sample.url.replace('http://', 'ws://')}/orders/live/socket`);
    expect((await socket.next('hello')).data).toEqual({ hostname: hostname(), pid: sample.child.pid });
    const stream = await openEventStream(`${sample.url}/orders/live/events`);

    const order = await createThroughApi(sample.url, 'Edsger Dijkstra');
    const frame = (await socket.next('order')) as { event: string; data: unknown; id?: string };
    const text = await stream.waitFor('the order event', (seen) => seen.includes('Edsger Dijkstra'));
    expect(frame.data).toEqual(order);
    expect(frame.id).toBe(/^id: (\d+)$/m.exec(text)?.[1]);
    expect(JSON.stringify(frame)).not.toContain(await storedNote(order.id));
    stream.leave();
    socket.ws.close();
  });

  test('a plain GET of the socket is 426, and the OpenAPI document leaves it out, as it leaves the pages', async () => {
    const res = await fetch(`${sample.url}/orders/live/socket`);
    expect(res.status).toBe(426);
    const document = (await (await fetch(`${sample.url}/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/orders'))).toEqual([]);
  });
});

// Without Chromium the page is not visited, saying why, unless the run requires it (CI does).
const browserMissing = isBrowserRequired() ? undefined : chromiumMissing();

describeNeeding(
  browserMissing ?? postgresServerMissing(),
  'the live orders page in Chromium, on PostgreSQL',
  () => {
    let sample: RunningSample;
    let database: { url: string; drop(): Promise<void> };
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      browser = await launchBrowser();
      database = await scratchDatabase(postgresUrl());
      sample = await startSample({ url: database.url });
      await waitUntilReady(sample.url);
      page = await openPage(browser, sample.url);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await sample?.stop();
      killRunningApps();
      await database?.drop();
    }, 30_000);

    test('the page shows each order as it is created, with no inline script', async () => {
      // A script error, or a resource the page refused (a Content-Security-Policy violation), shows
      // here; the browser's own request for a favicon, which the sample has none of, does not count.
      const violations: string[] = [];
      page.on('pageerror', (error) => violations.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
          violations.push(message.text());
      });
      await page.goto('/orders/live');
      await page.getByText('Connected: new orders appear here as they are created.').waitFor();
      expect(await page.locator('script:not([src])').count()).toBe(0);

      const order = await createThroughApi(sample.url, 'Barbara Liskov');
      const row = page.locator(`tr[data-order-id="${String(order.id)}"]`);
      await row.waitFor();
      expect(await row.locator('td').allTextContents()).toEqual([
        String(order.id),
        'Barbara Liskov',
        'Brass lamp',
        '2',
      ]);
      expect(violations).toEqual([]);
    });
  },
);
