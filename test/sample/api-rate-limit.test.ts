import { sampleAuthorization, startSample, waitUntilReady, type RunningSample } from '../factories/sample';

jest.setTimeout(90_000);

let sample: RunningSample | undefined;
afterAll(() => sample?.stop());

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  const { url } = sample as RunningSample;
  const headers = { 'content-type': 'application/json', ...(await sampleAuthorization(url)) };
  const init = body === undefined ? { method, headers } : { method, headers, body: JSON.stringify(body) };
  return fetch(`${url}${path}`, init);
}

test('the JSON API writes of the sample, on its embedded database, share one budget per client; reads are not limited', async () => {
  sample = await startSample({ embedded: true }, { env: { API_WRITES_PER_MINUTE: '3' } });
  await waitUntilReady(sample.url);
  const lamp = { customer: 'Ada', product: 'Brass lamp', quantity: 1 };

  const created = await send('POST', '/api/orders', lamp);
  expect(created.status).toBe(201);
  expect(created.headers.get('ratelimit-policy')).toBe('3;w=60');
  const { id } = (await created.json()) as { id: number };
  expect((await send('PUT', `/api/orders/${id}`, { ...lamp, quantity: 2 })).status).toBe(200);
  expect((await send('DELETE', `/api/orders/${id}`)).status).toBe(204);

  const refused = await send('POST', '/api/orders', lamp);
  expect(refused.status).toBe(429);
  expect(await refused.json()).toEqual({ error: 'too many requests' });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(refused.headers.get('ratelimit')).toMatch(/^limit=3, remaining=0, reset=\d+$/);

  for (let i = 0; i < 5; i++) {
    const read = await fetch(`${sample.url}/api/orders`);
    expect(read.status).toBe(200);
    expect(read.headers.get('ratelimit')).toBeNull();
  }
  // The store never failed: no request went through unlimited.
  expect(sample.lines().filter((line) => String(line.msg).startsWith('rate limit store failed'))).toEqual([]);
});
