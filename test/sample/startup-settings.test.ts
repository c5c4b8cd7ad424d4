import { afterEach, expect, test } from '@jest/globals';
import { logged } from '../factories/child-app';
import { startSample, type RunningSample } from '../factories/sample';
import { closedPort } from '../factories/test-databases';

// What the sample does with its settings missing. Its database is unreachable here: none of this
// needs one. Without an operator (ADMIN_EMAIL, ADMIN_PASSWORD) it still serves (reads, the pages,
// health) but nobody can log in, so every write is refused, and it says so when it starts.
let sample: RunningSample | undefined;
afterEach(async () => {
  await sample?.stop();
  sample = undefined;
});

test('with no operator and no SESSION_SECRET, logins and writes are refused with 401 and the start-up log says why', async () => {
  sample = await startSample(
    { url: `postgres://postgres@127.0.0.1:${await closedPort()}/orders` },
    { env: { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, SESSION_SECRET: undefined } },
  );
  const login = await fetch(`${sample.url}/api/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'someone@example.com', password: 'a guess' }),
  });
  expect(login.status).toBe(401);
  expect(await login.json()).toEqual({ error: 'wrong email or password' });
  expect(sample.lines()).toContainEqual(
    expect.objectContaining({
      level: 40,
      msg: 'ADMIN_EMAIL and ADMIN_PASSWORD are not set: nobody can log in, so every write is refused (reads stay open)',
    }),
  );
  expect((await fetch(`${sample.url}/health`)).status).toBe(200);
  // Outside production, a missing SESSION_SECRET is a random one, and the log says what that costs.
  expect(sample.lines()).toContainEqual(
    expect.objectContaining({
      level: 40,
      msg: 'SESSION_SECRET is not set: a random one is used, so sessions will not survive a restart',
    }),
  );
});

test('with NODE_ENV=production and no SESSION_SECRET the sample refuses to start, saying why', async () => {
  const refused = await startSample(
    { url: `postgres://postgres@127.0.0.1:${await closedPort()}/orders` },
    { env: { NODE_ENV: 'production', SESSION_SECRET: undefined } },
  ).then(
    () => 'started',
    (error: unknown) => String(error),
  );
  expect(refused).toContain('SESSION_SECRET is not set, and NODE_ENV is production');
});

test('with NODE_ENV=production readiness says only "unavailable", and the log keeps the driver\'s reason', async () => {
  const port = await closedPort();
  sample = await startSample(
    { url: `postgres://postgres@127.0.0.1:${port}/orders` },
    { env: { NODE_ENV: 'production' } },
  );
  const res = await fetch(`${sample.url}/health/ready`);

  expect(res.status).toBe(503);
  // Every reason hidden: the database's, and the job queue's, which cannot start without it.
  expect(await res.json()).toEqual({ status: 'error', db: 'unavailable', jobs: 'unavailable' });
  // The line comes through the child's stdout, which may reach the test after the answer does.
  await sample.waitFor('the not ready line', (lines) => logged(lines, 'not ready').length > 0);
  expect(sample.lines()).toContainEqual(
    expect.objectContaining({ msg: 'not ready', db: `connect ECONNREFUSED 127.0.0.1:${port}` }),
  );
});

test('HOST binds the public port and the metrics port to that address alone', async () => {
  // Two addresses of the loopback range: bound to 127.0.0.2, nothing answers on 127.0.0.1.
  sample = await startSample(
    { url: `postgres://postgres@127.0.0.1:${await closedPort()}/orders` },
    { env: { HOST: '127.0.0.2' } },
  );
  await sample.waitFor('the metrics line', (lines) => logged(lines, 'serving metrics').length > 0);
  const metricsUrl = String(logged(sample.lines(), 'serving metrics')[0]?.url);
  for (const url of [`${sample.url}/health`, metricsUrl]) {
    expect(new URL(url).hostname).toBe('127.0.0.2');
    expect((await fetch(url)).status).toBe(200);
    const elsewhere = new URL(url);
    elsewhere.hostname = '127.0.0.1';
    await expect(fetch(elsewhere)).rejects.toThrow('fetch failed');
  }
});
