import { killRunningApps, logged } from '../factories/child-app';
import { runNode } from '../factories/cli';
import {
  sampleAuthorization,
  SAMPLE_MAIN,
  startSample,
  waitUntilReady,
  type RunningSample,
} from '../factories/sample';
import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { describeNeeding } from '../factories/requirements';
import { postgresServerMissing, postgresUrl } from '../factories/test-databases';

afterAll(() => killRunningApps());

async function createOrder(sample: RunningSample): Promise<number> {
  const res = await fetch(`${sample.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await sampleAuthorization(sample.url)) },
    body: JSON.stringify({ customer: 'Grace', product: 'Compiler', quantity: 1 }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

function confirmationOf(sample: RunningSample, orderId: number): Promise<void> {
  return sample.waitFor(
    `the confirmation of order ${orderId}`,
    (lines) => logged(lines, 'order confirmation sent').some((line) => line.orderId === orderId),
    20_000,
  );
}

test('on the embedded database, a created order gets its confirmation from a job', async () => {
  const sample = await startSample({ embedded: true });
  try {
    await waitUntilReady(sample.url);
    // The embedded database serves one transaction at a time: until the queue has started, an
    // order's transaction cannot wait for it, and answers 503 with Retry-After.
    await sample.waitFor('the job queue to start', (lines) => logged(lines, 'job queue started').length > 0);
    const id = await createOrder(sample);
    await confirmationOf(sample, id);
    expect(logged(sample.lines(), 'order confirmation sent')).toEqual([
      expect.objectContaining({ orderId: id, customer: 'Grace' }),
    ]);
  } finally {
    expect((await sample.stop()).code).toBe(0);
  }
}, 120_000);

describeNeeding(postgresServerMissing(), 'the sample on a PostgreSQL server', () => {
  let database: ScratchDatabase;
  beforeAll(async () => (database = await createScratchDatabase(postgresUrl())));
  afterAll(() => database.drop());

  test('an order is confirmed once; jobs:status lists the confirmations and the daily summary', async () => {
    const sample = await startSample({ url: database.url });
    await waitUntilReady(sample.url);
    const id = await createOrder(sample);
    await confirmationOf(sample, id);
    expect((await sample.stop()).code).toBe(0);

    const status = await runNode(SAMPLE_MAIN, ['jobs:status'], {
      env: { DATABASE_URL: database.url },
      timeoutMs: 30_000,
    });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^OrderJobs\.dailySummary\s+0\s+0\s+0\s+\d+\s+0$/m);
    expect(status.stdout).toMatch(/^order-confirmation\s+0\s+0\s+0\s+1\s+0$/m);
    expect(status.stdout).toContain('no failed jobs');
  }, 120_000);
});
