import http from 'node:http';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Controller, Get, Module, Sse, type Context } from 'keel';
import { useServedApp } from '../factories/app';

// A 4 KiB JSON answer, over the default 1 KiB threshold.
const ROWS = Array.from({ length: 80 }, (_, i) => ({ id: i, name: `order number ${i}` }));

@Controller('c')
class CompressedController {
  @Get('json')
  json() {
    return ROWS;
  }

  @Get('small')
  small() {
    return { ok: true };
  }

  @Get('png')
  png(ctx: Context) {
    ctx.header('Content-Type', 'image/png');
    return Buffer.alloc(4096, 1);
  }

  @Get('csv')
  csv(ctx: Context) {
    ctx.header('Content-Type', 'text/csv; charset=utf-8');
    return Readable.from(ROWS.map((row) => `${row.id},${row.name}\n`));
  }

  @Sse('events')
  events() {
    return [{ data: 'x'.repeat(4096) }];
  }
}

@Module({ controllers: [CompressedController] })
class AppModule {}

const served = useServedApp(AppModule, { compression: true });
const plain = useServedApp(AppModule);

interface Seen {
  readonly status: number;
  readonly encoding: string | undefined;
  readonly vary: string | undefined;
  readonly body: Buffer;
}

// node:http, which leaves the body as it came: fetch would decode it (and ask for its own codings).
function get(url: string, acceptEncoding?: string, method = 'GET'): Promise<Seen> {
  const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            vary: res.headers.vary,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject)
      .end();
  });
}

test('br;q=1, gzip;q=0.5 gets br, with Vary: Accept-Encoding, and decodes to the answer', async () => {
  const res = await get(`${served().url}/c/json`, 'br;q=1, gzip;q=0.5');
  expect(res.encoding).toBe('br');
  expect(res.vary).toBe('Accept-Encoding');
  expect(JSON.parse(zlib.brotliDecompressSync(res.body).toString())).toEqual(ROWS);
  expect(res.body.length).toBeLessThan(JSON.stringify(ROWS).length / 2);
});

test('gzip;q=1, br;q=0.5 gets gzip', async () => {
  const res = await get(`${served().url}/c/json`, 'gzip;q=1, br;q=0.5');
  expect(res.encoding).toBe('gzip');
  expect(JSON.parse(zlib.gunzipSync(res.body).toString())).toEqual(ROWS);
});

test.each([
  ['identity', 'identity'],
  ['br;q=0, gzip;q=0', 'br;q=0, gzip;q=0'],
  ['no Accept-Encoding', undefined],
])('%s gets the answer as it is, still with Vary', async (_name, accept) => {
  const res = await get(`${served().url}/c/json`, accept);
  expect(res.encoding).toBeUndefined();
  expect(res.vary).toBe('Accept-Encoding');
  expect(JSON.parse(res.body.toString())).toEqual(ROWS);
});

test('an answer under the threshold is not compressed', async () => {
  const res = await get(`${served().url}/c/small`, 'gzip');
  expect(res.encoding).toBeUndefined();
  expect(res.body.toString()).toBe('{"ok":true}');
});

test('a PNG, compressed already, is sent as it is, with no Vary', async () => {
  const res = await get(`${served().url}/c/png`, 'br, gzip');
  expect(res.encoding).toBeUndefined();
  expect(res.vary).toBeUndefined();
  expect(res.body).toEqual(Buffer.alloc(4096, 1));
});

test('an event stream is never compressed', async () => {
  const res = await get(`${served().url}/c/events`, 'br, gzip');
  expect(res.encoding).toBeUndefined();
  expect(res.body.toString()).toContain(`data: ${'x'.repeat(4096)}`);
});

test('a returned CSV stream is compressed as it goes', async () => {
  const res = await get(`${served().url}/c/csv`, 'gzip');
  expect(res.encoding).toBe('gzip');
  expect(zlib.gunzipSync(res.body).toString()).toBe(ROWS.map((row) => `${row.id},${row.name}\n`).join(''));
});

test('HEAD gets no Content-Encoding', async () => {
  const res = await get(`${served().url}/c/json`, 'gzip', 'HEAD');
  expect(res.status).toBe(200);
  expect(res.encoding).toBeUndefined();
});

test('without option compression nothing is compressed and nothing varies', async () => {
  const res = await get(`${plain().url}/c/json`, 'br, gzip');
  expect(res.encoding).toBeUndefined();
  expect(res.vary).toBeUndefined();
});
