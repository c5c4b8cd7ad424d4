import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeaderHoldingResponse, tellWhenClosed, whenClosed } from '../../src/http/held-headers';

/** What one request's response saw of its close: keel's listener's calls, and the application's. */
interface Closes {
  told: number;
  heard: number;
}

/**
 * A server of `responseClass` whose every response is given `whenClosed`'s listener and an
 * application's own 'close' listener; `closes` has what the last response saw once it closed.
 */
async function serverOf(
  responseClass: typeof http.ServerResponse,
  answer: (res: http.ServerResponse) => void,
): Promise<{ url: string; closed: Promise<Closes>; server: http.Server }> {
  let settle: (closes: Closes) => void = () => undefined;
  const closed = new Promise<Closes>((resolve) => (settle = resolve));
  const server = http.createServer({ ServerResponse: responseClass }, (_req, res) => {
    const closes = { told: 0, heard: 0 };
    whenClosed(res, () => (closes.told += 1));
    res.on('close', () => {
      closes.heard += 1;
      // After this turn: a second 'close' would have come by then.
      setImmediate(() => settle(closes));
    });
    answer(res);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, closed, server };
}

// A keel server's response class, as an application's is made (express-objects.ts).
function keelResponseClass(): typeof http.ServerResponse {
  return class extends HeaderHoldingResponse {} as typeof http.ServerResponse;
}

async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

test("a keel server's response tells its listener once as its answer ends, and 'close' still reaches the application", async () => {
  const responseClass = keelResponseClass();
  tellWhenClosed(responseClass);
  const { url, closed, server } = await serverOf(responseClass, (res) => res.end('done'));
  try {
    const answer = await fetch(url);
    expect(await answer.text()).toBe('done');
    expect(await closed).toEqual({ told: 1, heard: 1 });
  } finally {
    await closeServer(server);
  }
});

test('a response whose client left before its answer tells its listener once', async () => {
  const responseClass = keelResponseClass();
  tellWhenClosed(responseClass);
  let answering: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => (answering = resolve));
  const { url, closed, server } = await serverOf(responseClass, () => answering());
  try {
    const leaving = http.get(url, { agent: false });
    leaving.on('error', () => undefined);
    await asked;
    leaving.destroy();
    expect(await closed).toEqual({ told: 1, heard: 1 });
  } finally {
    await closeServer(server);
  }
});

test("a response class not told to, keel's or Node's own, takes a 'close' listener instead", async () => {
  for (const responseClass of [keelResponseClass(), http.ServerResponse]) {
    const { url, closed, server } = await serverOf(responseClass, (res) => res.end('done'));
    try {
      await (await fetch(url)).text();
      expect(await closed).toEqual({ told: 1, heard: 1 });
    } finally {
      await closeServer(server);
    }
  }
});
