import http from 'node:http';

/** An answer as a client saw it. */
export interface Answer {
  readonly status: number;
  readonly connection: string | undefined;
  readonly cacheControl: string | undefined;
  readonly body: string;
}

/** GET `url` with node:http (its own connection unless `agent` says otherwise). */
export function get(url: string, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            cacheControl: res.headers['cache-control'],
            body,
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * Rejects with a message naming `what` if `promise` has not settled within `ms`, so a broken build
 * or a shutdown that hangs fails the test instead of stalling the suite.
 */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
