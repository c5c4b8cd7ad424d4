import http from 'node:http';
import { eventually } from './eventually';

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

/**
 * Asks `url` until it answers `status`; rejects after `timeoutMs`, with the last status seen. No Jest
 * global in it: the benchmark's runner, a plain Node process, waits for its servers with it too.
 */
export async function waitForStatus(url: string, status: number, timeoutMs: number): Promise<void> {
  const answers = async (): Promise<void> => {
    const seen = await fetchStatus(url);
    if (seen !== status) throw new Error(`the last answer was ${seen ?? 'none'}`);
  };
  await eventually(answers, {
    within: timeoutMs,
    every: 5,
    what: `GET ${url} to answer ${status}`,
  });
}
