import { afterEach, expect, test } from '@jest/globals';
import { startSample, waitUntilReady, type RunningSample } from '../factories/sample';
import { closedPort, postgresUrl } from '../factories/test-databases';

// The sample checks the Redis a deployment gives it (REDIS_URL) beside its database; without one,
// readiness has no such key.
let sample: RunningSample | undefined;
afterEach(async () => {
  await sample?.stop();
  sample = undefined;
});

async function readiness(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}/health/ready`);
  return { status: res.status, body: await res.json() };
}

test('with REDIS_URL readiness checks that Redis too', async () => {
  sample = await startSample({ scratchOn: postgresUrl() }, { env: { REDIS_URL: 'redis://127.0.0.1:6379' } });
  await waitUntilReady(sample.url);

  expect(await readiness(sample.url)).toEqual({
    status: 200,
    body: { status: 'ready', db: 'connected', redis: 'connected', jobs: 'connected' },
  });
});

test('with REDIS_URL on a port where nothing listens, the sample is not ready and says why', async () => {
  const port = await closedPort();
  sample = await startSample(
    { scratchOn: postgresUrl() },
    { env: { REDIS_URL: `redis://127.0.0.1:${port}` } },
  );

  await sample.waitFor(
    'the database',
    (lines) => lines.some((line) => line.msg === 'database connected'),
    30_000,
  );
  const answer = await readiness(sample.url);

  expect(answer).toMatchObject({ status: 503, body: { status: 'error', db: 'connected' } });
  expect((answer.body as { redis: string }).redis).not.toBe('connected');
});

test('without REDIS_URL readiness has no redis key', async () => {
  sample = await startSample({ scratchOn: postgresUrl() }, { env: { REDIS_URL: undefined } });
  await waitUntilReady(sample.url);

  expect(await readiness(sample.url)).toEqual({
    status: 200,
    body: { status: 'ready', db: 'connected', jobs: 'connected' },
  });
});

test('a REDIS_URL that is not a redis:// URL is refused at start, saying so', async () => {
  const refused = await startSample(
    { scratchOn: postgresUrl() },
    { env: { REDIS_URL: 'http://cache:6379' } },
  ).then(
    () => 'started',
    (error: unknown) => String(error),
  );

  expect(refused).toContain('REDIS_URL must be a redis:// or rediss:// URL');
});
