import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { startChild, type ChildApp } from '../factories/child-app';

const BIG = 800 * 64 * 1024;

let app: ChildApp;

beforeAll(async () => {
  app = await startChild({
    args: ['--expose-gc', path.join(__dirname, '..', 'fixtures', 'apps', 'stream-app.mjs')],
    urlFrom: (lines) => {
      const port = lines.find((line) => 'port' in line)?.port as number | undefined;
      return port === undefined ? undefined : `http://127.0.0.1:${port}`;
    },
  });
});

afterAll(async () => {
  app?.child.kill('SIGTERM');
  await app?.exited;
});

// The child's resident set, as the kernel counts it.
async function rssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
}

// Reads the whole answer a chunk at a time with a pause after each, as a slow client does.
function readSlowly(
  url: string,
  onChunk: () => Promise<void>,
): Promise<{ status: number; bytes: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          res.pause();
          void onChunk().then(() => res.resume(), reject);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, bytes, type: res.headers['content-type'] }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

test('a 50 MiB stream to a client that reads slowly keeps the server within 20 MB of its idle RSS', async () => {
  const pid = app.child.pid as number;
  await fetch(`${app.url}/small`).then((res) => res.text());
  const idle = await rssKiB(pid);
  let peak = idle;
  let reads = 0;
  const answer = await readSlowly(`${app.url}/big`, async () => {
    // A pause after every chunk: the server's writes outrun the reads, and its buffers would fill.
    await sleep(1);
    if (++reads % 32 === 0) peak = Math.max(peak, await rssKiB(pid));
  });
  expect(answer).toEqual({ status: 200, bytes: BIG, type: 'application/octet-stream' });
  expect((peak - idle) / 1024).toBeLessThan(20);
}, 60_000);

test.each([
  ['a Node Readable', '/big', 'node'],
  ['a web ReadableStream', '/web', 'web'],
])('a client that leaves in the middle of %s closes the source', async (_kind, path, closed) => {
  const before = app.lines().length;
  await new Promise<void>((resolve, reject) => {
    const req = http.get(`${app.url}${path}`, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > 1024 * 1024) {
          req.destroy();
          resolve();
        }
      });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
  });
  await app.waitFor(`the ${closed} source closed`, (lines) =>
    lines.slice(before).some((line) => line.closed === closed),
  );
  const line = app
    .lines()
    .slice(before)
    .find((each) => each.closed === closed);
  // Backpressure held the source back: it made a few chunks past what the client read, not all 800.
  expect(line?.sent).toBeLessThan(200);
});
