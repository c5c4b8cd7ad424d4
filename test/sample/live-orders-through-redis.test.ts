import { afterEach, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';
import { openEventStream } from '../factories/event-stream-client';
import {
  SAMPLE_ORDER,
  createSampleOrder,
  scratchDatabase,
  startSample,
  waitUntilReady,
  type RunningSample,
} from '../factories/sample';
import { closedPort, postgresUrl } from '../factories/test-databases';

// With REALTIME_VIA=redis the sample's live list goes through the Redis of REDIS_URL instead of its
// database: the events are in Redis, under REALTIME_KEY_PREFIX, and none in the database's table.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let sample: RunningSample | undefined;
let database: { url: string; drop(): Promise<void> } | undefined;
afterEach(async () => {
  await sample?.stop();
  await database?.drop();
  sample = undefined;
  database = undefined;
});

async function storedEventCount(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM keel_realtime_events');
    return Number(rows[0]?.count);
  } finally {
    await client.end();
  }
}

test('with REALTIME_VIA=redis each new order is an event kept in Redis under REALTIME_KEY_PREFIX, streamed as over the database', async () => {
  // Other tests share this Redis: this one's keys are its own, deleted at the end.
  const keyPrefix = `keel-sample-test:${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(REDIS_URL);
  try {
    database = await scratchDatabase(postgresUrl());
    sample = await startSample(
      { url: database.url },
      { env: { REALTIME_VIA: 'redis', REDIS_URL, REALTIME_KEY_PREFIX: keyPrefix } },
    );
    await waitUntilReady(sample.url);
    const stream = await openEventStream(`${sample.url}/orders/live/events`);

    const order = await createSampleOrder(sample.url, { ...SAMPLE_ORDER, customer: 'Radia Perlman' });
    const text = await stream.waitFor('the order event', (seen) => seen.includes('Radia Perlman'));
    stream.leave();

    const members = await redis.zrange(`${keyPrefix}channel:orders`, 0, -1);
    expect(members.map((member) => JSON.parse(member) as unknown)).toEqual([
      expect.objectContaining({ id: /^id: (\d+)$/m.exec(text)?.[1], event: 'order', data: order }),
    ]);
    expect(await storedEventCount(database.url)).toBe(0);
  } finally {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
});

test('REALTIME_VIA=redis without REDIS_URL, or a REALTIME_VIA of neither kind, is refused at start, saying so', async () => {
  // No database is reached: the settings are refused first.
  const nowhere = `postgres://postgres@127.0.0.1:${await closedPort()}/orders`;
  const refusal = (env: Record<string, string | undefined>) =>
    startSample({ url: nowhere }, { env }).then(
      (started) => {
        sample = started;
        return 'started';
      },
      (error: unknown) => String(error),
    );

  expect(await refusal({ REALTIME_VIA: 'redis', REDIS_URL: undefined })).toContain(
    'REDIS_URL must be set (REALTIME_VIA is redis)',
  );
  expect(await refusal({ REALTIME_VIA: 'kafka' })).toContain('REALTIME_VIA must be postgres or redis');
});
