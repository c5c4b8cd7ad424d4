import http from 'node:http';

/** The status of `GET url` on a fresh connection, or `undefined` when nothing answers. */
export function fetchStatus(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
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
