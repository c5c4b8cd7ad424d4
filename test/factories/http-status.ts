import http from 'node:http';

// A server that accepts and never answers must not hold a poll past its deadline.
const REQUEST_TIMEOUT_MS = 2000;

/** The status of `GET url` on a fresh connection, or `undefined` when nothing answers. */
export function fetchStatus(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: REQUEST_TIMEOUT_MS }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(undefined));
  });
}

/** Polls `url` until it answers `status`; rejects after `timeoutMs`. */
export async function waitForStatus(url: string, status: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await fetchStatus(url)) !== status) {
    if (Date.now() > deadline) throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
