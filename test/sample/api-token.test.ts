import { afterAll, expect, test } from '@jest/globals';
import { startSample, type RunningSample } from '../factories/sample';
import { closedPort } from '../factories/test-databases';

// Without API_TOKEN the sample still serves (reads, the pages, health) but refuses every write to its
// JSON API, and says so when it starts. Its database is unreachable here: the guard answers first.
let sample: RunningSample | undefined;
afterAll(() => sample?.stop());

test('with API_TOKEN unset, writes are refused with 401 and the start-up log says why', async () => {
  sample = await startSample(
    { url: `postgres://postgres@127.0.0.1:${await closedPort()}/orders` },
    { env: { API_TOKEN: undefined } },
  );
  const res = await fetch(`${sample.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer anything' },
    body: JSON.stringify({ customer: 'Ada', product: 'Lamp', quantity: 1 }),
  });
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ error: 'writes are disabled: the server has no API_TOKEN' });
  expect(sample.lines()).toContainEqual(
    expect.objectContaining({
      level: 40,
      msg: 'API_TOKEN is not set: writes to /api/orders are refused with 401 (reads stay open)',
    }),
  );
  expect((await fetch(`${sample.url}/health`)).status).toBe(200);
});
